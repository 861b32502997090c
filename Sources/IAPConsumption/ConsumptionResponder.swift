import Foundation
import IAPFetch
import IAPFormats
import IAPStore

/// What one `iaplens consumption` run did with each request it looked at.
public struct ConsumptionSummary: Sendable, Equatable {
    public enum Outcome: String, Sendable, CaseIterable {
        /// Sent, and Apple took it (202).
        case answered
        /// Sent, and Apple refused it (recorded; never sent again).
        case refused
        /// `--dry-run`: the body was printed.
        case wouldSend = "would_send"
        /// Older than 12 hours with no answer: too late to send.
        case missed
        /// Apple already refunded or declined it.
        case decided
        case skippedNoFacts = "skipped_no_facts"
        case skippedNoConsent = "skipped_no_consent"
    }

    public var outcomes: [(notificationId: String, transactionId: String, outcome: Outcome)] = []
    /// Bodies sent or (dry run) that would be, in order: (transaction, canonical JSON).
    public var bodies: [(transactionId: String, body: String)] = []
    public var declines = 0

    public func count(_ outcome: Outcome) -> Int { outcomes.filter { $0.outcome == outcome }.count }

    /// One line for logs.
    public var line: String {
        "consumption: " + Outcome.allCases.map { "\(count($0)) \($0.rawValue)" }.joined(separator: ", ")
            + "; \(declines) with refundPreference DECLINE"
    }

    public static func == (a: ConsumptionSummary, b: ConsumptionSummary) -> Bool { a.line == b.line }
}

/// Answers every pending consumption request in the store (PIPELINE.md "Answering consumption requests").
/// *Pending*: not answered yet, signed at most 12 hours before `now`, not yet decided by Apple.
public struct ConsumptionResponder: Sendable {
    public static let answerWindowMs: Int64 = 12 * 3_600_000

    let store: any StoreEngine
    let facts: [String: ConsumptionFactsRow]
    let api: AppStoreServerAPI?

    /// - Parameter api: nil for a dry run: bodies are returned, nothing is sent or recorded.
    public init(store: any StoreEngine, facts: [ConsumptionFactsRow], api: AppStoreServerAPI?) {
        self.store = store
        var byTransaction: [String: ConsumptionFactsRow] = [:]
        for row in facts { byTransaction[row.transactionId] = row }
        self.facts = byTransaction
        self.api = api
    }

    public func run(now: Int64) async throws -> ConsumptionSummary {
        var summary = ConsumptionSummary()
        for request in try ConsumptionRequest.unanswered(in: store) {
            let outcome = try await answer(request, now: now, summary: &summary)
            summary.outcomes.append((request.notificationId, request.transactionId, outcome))
        }
        return summary
    }

    private func answer(_ request: ConsumptionRequest, now: Int64, summary: inout ConsumptionSummary) async throws
        -> ConsumptionSummary.Outcome
    {
        if request.decision != nil { return .decided }
        if now - request.signedAtMs > Self.answerWindowMs { return .missed }
        guard let facts = facts[request.transactionId] else { return try record(request, .skippedNoFacts, now: now) }
        guard facts.customerConsented else { return try record(request, .skippedNoConsent, now: now) }
        let body = ConsumptionBody.make(for: request, facts: facts)
        summary.bodies.append((request.transactionId, String(decoding: body, as: UTF8.self)))
        if !request.rules.isEmpty { summary.declines += 1 }
        guard let api else { return .wouldSend }
        let status = try await api.sendConsumptionInformation(transactionId: request.transactionId, body: body)
        // Recorded whatever Apple said: a 202 is answered; a refusal of this body would be refused again.
        return try record(request, status == 202 ? .answered : .refused, body: body, status: status, now: now)
    }

    /// Keeps the outcome in the store (a dry run keeps nothing): final for answers, the latest reason for skips.
    private func record(
        _ request: ConsumptionRequest, _ outcome: ConsumptionSummary.Outcome, body: [UInt8]? = nil, status: Int? = nil,
        now: Int64
    ) throws -> ConsumptionSummary.Outcome {
        guard api != nil else { return outcome }
        _ = try store.write { connection in
            try connection.execute(
                """
                INSERT INTO consumption_answers (notification_id, transaction_id, result, body, sent_at, http_status)
                VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (notification_id) DO UPDATE SET
                    result = excluded.result, body = excluded.body, sent_at = excluded.sent_at,
                    http_status = excluded.http_status
                """,
                [.text(request.notificationId), .text(request.transactionId), .text(outcome.rawValue),
                 body.map { .text(String(decoding: $0, as: UTF8.self)) } ?? .null, .integer(now),
                 status.map { .integer(Int64($0)) } ?? .null])
        }
        return outcome
    }
}
