import Foundation
import IAPAnalytics
import IAPFetch
import IAPFormats
import IAPStore

/// What one `iaplens consumption` run did with each request it looked at.
public struct ConsumptionSummary: Sendable, Equatable {
    public enum Outcome: String, Sendable, CaseIterable {
        /// Sent, and Apple took it (202).
        case answered
        /// Sent, and Apple took it, after the request's 12 hours had passed (retries and waits took too long).
        case answeredLate = "answered_late"
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
        /// Sent, and no answer recorded (a run stopped between sending and recording, or the connection was lost):
        /// it may have reached Apple, so it is never sent again; a person checks it.
        case inDoubt = "in_doubt"
        /// Apple kept failing (429 / 5xx on every attempt): not taken, tried again by the next run while in time.
        case failed
        /// Its stored copy was accepted without a verified signature (`--no-verify`): never answered.
        case unverified
        /// Two verified copies of one request ID name different transactions: neither is answered; a person checks.
        case conflicting
        /// Signed after this run's clock: not a request Apple can have sent yet.
        case signedInFuture = "signed_in_future"
        /// Not tried: the run's deadline (`--deadline`) passed first. Pending, for the next run while in time.
        case notTried = "not_tried"

        /// What `consumption_answers` keeps for this outcome; nil for those recorded nowhere (the request stays
        /// pending, or is decided by the mart).
        var storedResult: ConsumptionAnswerResult? {
            switch self {
            case .answered, .answeredLate: return .answered
            case .refused: return .refused
            case .skippedNoFacts: return .skippedNoFacts
            case .skippedNoConsent: return .skippedNoConsent
            case .inDoubt: return .inDoubt
            case .wouldSend, .missed, .decided, .failed, .unverified, .conflicting, .signedInFuture, .notTried:
                return nil
            }
        }
    }

    public var outcomes: [(notificationId: String, transactionId: String, outcome: Outcome)] = []
    /// Bodies sent or (dry run) that would be, in order: (transaction, canonical JSON).
    public var bodies: [(transactionId: String, body: String)] = []
    public var declines = 0
    /// Of the declines, those for accounts a reviewer confirmed (`--reviews`) that meet no rule any more.
    public var confirmedDeclines = 0
    /// Requests Apple kept failing, each with the message: named in the summary, tried again next run.
    public var failures: [(transactionId: String, message: String)] = []
    /// Warnings for the person running it (a key file readable by others, …).
    public var warnings: [String] = []
    /// Answers Apple refused, with what it said: (transaction, HTTP status, Apple's errorCode, its message).
    public var refusals: [(transactionId: String, status: Int, errorCode: Int64?, message: String)] = []
    /// True when the run's deadline stopped it before every request was tried.
    public var stoppedByDeadline = false

    public func count(_ outcome: Outcome) -> Int { outcomes.filter { $0.outcome == outcome }.count }

    /// One line for logs.
    public var line: String {
        "consumption: " + Outcome.allCases.map { "\(count($0)) \($0.rawValue)" }.joined(separator: ", ")
            + "; \(declines) with refundPreference DECLINE"
            + (confirmedDeclines > 0 ? " (\(confirmedDeclines) for accounts a reviewer confirmed)" : "")
    }

    public static func == (a: ConsumptionSummary, b: ConsumptionSummary) -> Bool { a.line == b.line }
}

/// Answers every pending consumption request in the store (Documentation/Pipeline.md "Answering consumption requests").
/// *Pending*: not answered yet, signed at most 12 hours before `now`, not yet decided by Apple.
public struct ConsumptionResponder: Sendable {
    let store: any StoreEngine
    let facts: [String: ConsumptionFactsRow]
    let api: AppStoreServerAPI?
    /// How long the whole run may take (nil: no bound); requests not tried by then stay pending for the next run.
    let deadline: Duration?

    /// - Parameter api: nil for a dry run: bodies are returned, nothing is sent or recorded.
    /// - Parameter deadline: the whole run's time bound (Documentation/Pipeline.md "Answering consumption requests").
    public init(
        store: any StoreEngine, facts: [ConsumptionFactsRow], api: AppStoreServerAPI?, deadline: Duration? = nil
    ) {
        self.deadline = deadline
        self.store = store
        var byTransaction: [String: ConsumptionFactsRow] = [:]
        for row in facts { byTransaction[row.transactionId] = row }
        self.facts = byTransaction
        self.api = api
    }

    public func run(now: Int64) async throws -> ConsumptionSummary {
        var summary = ConsumptionSummary()
        // Intents an earlier run left behind: sent or not, nobody knows. Never sent again.
        if api != nil {
            for (notificationId, transactionId) in try ConsumptionRequest.leftSending(in: store) {
                try setResult(notificationId, .inDoubt)
                summary.outcomes.append((notificationId, transactionId, .inDoubt))
            }
        }
        let requests = try ConsumptionRequest.unanswered(in: store)
        // One answer per request ID: two verified copies of one ID that name different transactions cannot both be
        // Apple's request, so neither is answered.
        var verifiedCopies: [String: Int] = [:]
        for request in requests where request.isVerified { verifiedCopies[request.notificationId, default: 0] += 1 }
        let clock = ContinuousClock()
        let started = clock.now
        // The time of each decision and each accepted answer is the clock's, not the run's start: retries and Apple's
        // `Retry-After` can take minutes.
        let time = { now + Int64((clock.now - started) / .milliseconds(1)) }
        for request in requests {
            if let deadline, clock.now - started >= deadline {
                summary.stoppedByDeadline = true
                summary.outcomes.append((request.notificationId, request.transactionId, .notTried))
                continue
            }
            guard request.isVerified else {
                summary.outcomes.append((request.notificationId, request.transactionId, .unverified))
                continue
            }
            guard verifiedCopies[request.notificationId] == 1 else {
                summary.outcomes.append((request.notificationId, request.transactionId, .conflicting))
                continue
            }
            let outcome = try await answer(request, now: time, summary: &summary)
            summary.outcomes.append((request.notificationId, request.transactionId, outcome))
        }
        return summary
    }

    private func answer(_ request: ConsumptionRequest, now time: () -> Int64, summary: inout ConsumptionSummary)
        async throws
        -> ConsumptionSummary.Outcome
    {
        let now = time()
        if request.decision != nil { return .decided }
        // A minute of clock difference between Apple and this machine is not the future.
        if request.signedAtMs > now + 60_000 { return .signedInFuture }
        if now - request.signedAtMs > BusinessRules.consumptionAnswerWindowMs { return .missed }
        guard let facts = facts[request.transactionId] else { return try record(request, .skippedNoFacts, now: now) }
        guard facts.customerConsented else { return try record(request, .skippedNoConsent, now: now) }
        let body = ConsumptionBody.make(for: request, facts: facts)
        summary.bodies.append((request.transactionId, String(decoding: body, as: UTF8.self)))
        if !request.rules.isEmpty { summary.declines += 1 }
        if request.rules == "confirmed_by_review" { summary.confirmedDeclines += 1 }
        guard let api else { return .wouldSend }
        // The intent first, in its own transaction: from here on the request is never sent again, whatever
        // happens (Documentation/Fetching.md "Consumption requests: at most once").
        try record(request, .sending, body: body, status: nil, now: now)
        let status: Int
        let answer: [UInt8]
        do {
            (status, answer) = try await api.sendConsumptionInformation(
                transactionId: request.transactionId, body: body)
        } catch FetchError.gaveUp(let name, let attempts, let last) {
            // Every attempt was answered 429 / 5xx: Apple did not take it. Pending again, for the next run.
            try forget(request.notificationId)
            summary.failures.append(
                (request.transactionId, FetchError.gaveUp(request: name, attempts: attempts, last: last).description))
            return .failed
        } catch FetchError.redirected(_, let code) {
            // A redirect is a definite refusal, like a 5xx: nothing was taken. Pending again, for the next run.
            try forget(request.notificationId)
            summary.failures.append(
                (
                    request.transactionId,
                    "Send Consumption Information was answered with a redirect (HTTP \(code)), which Apple's API never sends: "
                        + "nothing was taken. The request stays pending and the next run sends it while its \(BusinessRules.consumptionAnswerWindowHours) hours last."
                ))
            return .failed
        } catch FetchError.noAnswer {
            try setResult(request.notificationId, .inDoubt)
            return .inDoubt
        } catch let error as FetchError {
            // Refused before Apple looked at the body (the key, the size of the answer): nothing was taken.
            try forget(request.notificationId)
            throw error
        }
        let sentAt = time()
        guard status == 202 else {
            // Refused: recorded with what Apple said; the same body would be refused again.
            let refusal = Self.appleError(answer)
            summary.refusals.append((request.transactionId, status, refusal.code, refusal.message))
            return try record(
                request, .refused, body: body, status: status, now: sentAt, errorCode: refusal.code,
                errorMessage: refusal.message)
        }
        try record(request, ConsumptionAnswerResult.answered, body: body, status: status, now: sentAt)
        return sentAt - request.signedAtMs > BusinessRules.consumptionAnswerWindowMs ? .answeredLate : .answered
    }

    /// Apple's `errorCode` and `errorMessage` of a refusal's body, when it is Apple's JSON error.
    static func appleError(_ body: [UInt8]) -> (code: Int64?, message: String) {
        guard case .object(let object)? = try? JSONParser.parse(body) else {
            return (nil, String(String(decoding: body.prefix(400), as: UTF8.self).prefix(200)))
        }
        let code: Int64? =
            if case .number(let number)? = object["errorCode"] { Int64(number.text) } else { nil }
        return (code, String((object["errorMessage"]?.stringValue ?? "").prefix(400)))
    }

    private func setResult(_ notificationId: String, _ result: ConsumptionAnswerResult) throws {
        _ = try store.write { connection in
            try connection.execute(
                "UPDATE consumption_answers SET result = ? WHERE notification_id = ?",
                [.text(result.rawValue), .text(notificationId)])
        }
    }

    private func forget(_ notificationId: String) throws {
        _ = try store.write { connection in
            try connection.execute(
                "DELETE FROM consumption_answers WHERE notification_id = ? AND result = ?",
                [.text(notificationId), .text(ConsumptionAnswerResult.sending.rawValue)])
        }
    }

    /// Keeps the outcome in the store (a dry run keeps nothing): final for answers, the latest reason for skips.
    private func record(
        _ request: ConsumptionRequest, _ outcome: ConsumptionSummary.Outcome, body: [UInt8]? = nil, status: Int? = nil,
        now: Int64, errorCode: Int64? = nil, errorMessage: String? = nil
    ) throws -> ConsumptionSummary.Outcome {
        if let result = outcome.storedResult {
            try record(
                request, result, body: body, status: status, now: now, errorCode: errorCode, errorMessage: errorMessage)
        }
        return outcome
    }

    private func record(
        _ request: ConsumptionRequest, _ result: ConsumptionAnswerResult, body: [UInt8]?, status: Int?, now: Int64,
        errorCode: Int64? = nil, errorMessage: String? = nil
    ) throws {
        guard api != nil else { return }
        _ = try store.write { connection in
            try connection.execute(
                """
                INSERT INTO consumption_answers
                    (notification_id, transaction_id, result, body, sent_at, http_status, apple_error_code, apple_error_message)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (notification_id) DO UPDATE SET
                    result = excluded.result, body = excluded.body, sent_at = excluded.sent_at,
                    http_status = excluded.http_status, apple_error_code = excluded.apple_error_code,
                    apple_error_message = excluded.apple_error_message
                """,
                [
                    .text(request.notificationId), .text(request.transactionId), .text(result.rawValue),
                    body.map { .text(String(decoding: $0, as: UTF8.self)) } ?? .null, .integer(now),
                    status.map { .integer(Int64($0)) } ?? .null, errorCode.map(SQLValue.integer) ?? .null,
                    errorMessage.map(SQLValue.text) ?? .null,
                ])
        }
    }
}
