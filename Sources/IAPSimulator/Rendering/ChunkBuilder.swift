import IAPFormats
import IAPTestSigning

/// Generates, signs and renders one chunk of customers into file lines, lookups and expectations.
///
/// A chunk depends only on the seed and its index, so chunks can be built on any thread in any order
/// and the writer, which appends them in index order, always produces the same bytes.
struct ChunkBuilder: Sendable {
    static let chunkSize = 128

    let world: SimWorld
    let renderer: DocumentRenderer
    let untrusted: JWSSigner

    /// Total customers: subscribers, then buyers, then rings.
    var entityCount: Int { world.counts.subscribers + world.counts.buyers + world.counts.rings }

    var chunkCount: Int { max(1, (entityCount + Self.chunkSize - 1) / Self.chunkSize) }

    func build(chunk: Int) throws -> ChunkOutput {
        var output = ChunkOutput()
        var noise = SimRandom(world.seed, SimWorld.Kind.noise.rawValue, UInt64(chunk))
        let range = (chunk * Self.chunkSize)..<min(entityCount, (chunk + 1) * Self.chunkSize)
        var context = NoiseContext()
        for global in range {
            try render(entity: global, into: &output, noise: &noise, context: &context)
        }
        output.entities = range.count
        if world.noise {
            try NoiseInjector(builder: self, chunk: chunk, entities: range.count).inject(
                into: &output, random: &noise, context: context)
        }
        finishOrdering(&output, random: &noise)
        return output
    }

    /// Material the noise injector borrows from genuine documents of the chunk.
    struct NoiseContext {
        var lastV2: (line: ChunkOutput.Line, month: Int, payload: JSONOutput, jws: String)?
        var lastV1: (line: ChunkOutput.Line, month: Int)?
        var refundable: SimTransaction?
        var dupForcedV1 = false
        var dupForcedV2 = false
    }

    // MARK: - One customer

    private func render(
        entity global: Int, into output: inout ChunkOutput, noise: inout SimRandom, context: inout NoiseContext
    ) throws {
        let (kind, index, timeline) = script(for: global)
        var ledger = VisibilityLedger()
        var r = world.random(kind, index, stream: 7)
        var events = timeline.events
        // Stable sort keeps a customer's same-millisecond events in script order.
        events = events.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(
            \.element)
        for (ordinal, event) in events.enumerated() {
            // The archive starts with the simulated window: what happened before it reaches the archive only as the
            // history later documents carry (V1 receipts), as in a real archive started late.
            guard event.time >= world.windowStart else {
                output.tally.add("lostNotifications", "beforeTheArchive")
                continue
            }
            var uuidRandom = SimRandom(world.seed, kind.rawValue, UInt64(index), 1_000 + UInt64(ordinal))
            let uuid = uuidRandom.uuid()
            if world.isV1(event.time) {
                guard let type = event.v1Type else { continue }
                let (body, naturalTime) = renderer.v1Body(event, random: &r)
                var docTime = naturalTime
                var value = body
                // An archive envelope records when a body arrived; one whose own dates lie before the archive began
                // always has one (its document time would otherwise date it before the archive).
                if r.chance(0.3) || naturalTime < world.windowStart {
                    docTime = event.time + r.int64(in: 50...4_000)
                    value = DocumentRenderer.envelope(body, receivedAt: docTime, iso: r.chance(0.5))
                }
                let line = ChunkOutput.Line(time: event.time, text: value.text)
                let month = SimTime.monthIndex(ofMillis: event.time)
                output.v1Lines[month, default: []].append(line)
                output.tally.add("documents", "v1_notification")
                output.tally.add("v1NotificationTypes", type)
                output.asOf = max(output.asOf, docTime)
                for tx in event.receipt.isEmpty ? [event.transaction] : event.receipt {
                    ledger.saw(tx, at: docTime, inNotification: true)
                }
                context.lastV1 = (line, month)
                if world.noise, !context.dupForcedV1 || noise.chance(0.02) {
                    context.dupForcedV1 = true
                    duplicate(line, month: month, v2: false, into: &output, random: &noise)
                }
                continue
            }
            let typeKey = event.v2Type + (event.v2Subtype.map { "/" + $0 } ?? "")
            if event.lost {
                output.tally.add("lostNotifications", "expiredNeverSent")
                continue
            }
            let signed = try renderer.v2Notification(event, uuid: uuid)
            let inOutage = world.outage?.contains(event.time) ?? false
            let inHistory = world.historyWindow?.contains(event.time) ?? false
            let redeliver = inHistory && event.v2Type != "REFUND" && r.chance(inOutage ? 0.6 : 0.4)
            if inOutage {
                output.tally.add("lostNotifications", redeliver ? "outageRedeliveredByHistory" : "outageLost")
            }
            if !inOutage {
                var value = DocumentRenderer.v2Body(signed.jws)
                if r.chance(0.15) {
                    value = DocumentRenderer.envelope(
                        value, receivedAt: event.time + r.int64(in: 50...4_000), iso: false)
                }
                let line = ChunkOutput.Line(time: event.time, text: value.text)
                let month = SimTime.monthIndex(ofMillis: event.time)
                output.v2Lines[month, default: []].append(line)
                output.tally.add("documents", "v2_notification")
                context.lastV2 = (line, month, signed.payload, signed.jws)
                if world.noise, !context.dupForcedV2 || noise.chance(0.02) {
                    context.dupForcedV2 = true
                    duplicate(line, month: month, v2: true, into: &output, random: &noise)
                }
            }
            if redeliver {
                output.historyItems.append(historyItem(signed.jws, time: event.time, failed: inOutage, random: &r))
                if !inOutage { output.tally.add("duplicates", "notificationHistoryRedelivery") }
            }
            guard !inOutage || redeliver else { continue }
            output.tally.add("v2NotificationTypes", typeKey)
            output.asOf = max(output.asOf, event.time)
            ledger.saw(event.transaction, at: event.time, inNotification: true)
            if event.transaction.product.type == .consumable && event.v2Type == "ONE_TIME_CHARGE" {
                context.refundable = event.transaction
            }
        }
        for event in timeline.events {
            if let reason = event.churnReason { output.tally.add("intendedChurn", reason) }
        }
        for outcome in timeline.billingOutcomes { output.tally.add("billingEpisodes", outcome) }
        output.accountRows += timeline.accountRows.map { $0.token + "," + $0.accountId }
        output.reviewRows += timeline.reviewRows
        try renderLookups(timeline, kind: kind, global: global, ledger: &ledger, into: &output, random: &r)
        output.appleEntries += FinanceReportWriter.entries(of: timeline.transactions, world: world)
        ledger.tallyExpectations(world: world, accountRows: timeline.accountRows, into: &output)
    }

    private func script(for global: Int) -> (SimWorld.Kind, Int, EntityTimeline) {
        let subscribers = world.counts.subscribers
        let buyers = world.counts.buyers
        if global < subscribers {
            return (.subscriber, global, SubscriberScript(world: world, index: global).run())
        }
        if global < subscribers + buyers {
            return (
                .buyer, global - subscribers, ConsumableBuyerScript(world: world, index: global - subscribers).run()
            )
        }
        let ring = global - subscribers - buyers
        return (.ring, ring, RefundRingScript(world: world, index: ring).run())
    }

    // MARK: - Lookups

    /// Refund-history entries (final state, recent refunds only) and some order lookups, signed at lookup time.
    private func renderLookups(
        _ timeline: EntityTimeline, kind: SimWorld.Kind, global: Int, ledger: inout VisibilityLedger,
        into output: inout ChunkOutput, random r: inout SimRandom
    ) throws {
        let signedDate = world.lookupTime + Int64(global % 3_600) * SimTime.second
        for tx in timeline.transactions where tx.isRefund && (tx.revocationDate ?? 0) >= world.refundLookupStart {
            let jws = try renderer.signer.sign(payload: tx.v2Payload(signedDate: signedDate).bytes)
            output.refundEntries.append(ChunkOutput.Line(time: tx.revocationDate ?? 0, text: jws))
            output.tally.add("documents", "refund_history_transaction")
            ledger.saw(tx, at: signedDate, inNotification: false)
            output.asOf = max(output.asOf, signedDate)
        }
        let share: Double = kind == .ring ? 0.5 : (kind == .buyer ? 0.06 : 0.03)
        let byId = Dictionary(timeline.transactions.map { ($0.transactionId, $0) }, uniquingKeysWith: { a, _ in a })
        // Order lookups are separate API calls made a little later: Apple signs each response anew, so a
        // refunded transaction in both a refund page and an order lookup arrives as two different JWS.
        let orderSignedDate = signedDate + 90 * SimTime.second
        for order in timeline.orders where r.chance(share) {
            let txs = order.transactionIds.compactMap { byId[$0] }
            var signedList: [JSONOutput] = []
            for tx in txs {
                signedList.append(
                    .string(try renderer.signer.sign(payload: tx.v2Payload(signedDate: orderSignedDate).bytes)))
                ledger.saw(tx, at: orderSignedDate, inNotification: false)
            }
            var o = JSONObjectBuilder()
            // Whoever saved the result sometimes forgot the order ID.
            if r.chance(0.9) {
                o.add("orderId", order.orderId)
            } else {
                output.tally.add("lookups", "orderLookupWithoutOrderId")
            }
            o.add("status", .int(0))
            o.add("signedTransactions", .array(signedList))
            output.orderLines.append(o.value.text)
            output.tally.add("documents", "order_lookup")
            output.tally.add("documents", "order_lookup_transaction", signedList.count)
            output.asOf = max(output.asOf, orderSignedDate)
        }
    }

    /// A `notificationHistory` item: one success, or failed attempts on Apple's retry schedule.
    private func historyItem(_ jws: String, time: Int64, failed: Bool, random r: inout SimRandom) -> ChunkOutput.Line {
        var attempts: [JSONOutput] = []
        if failed {
            let offsets: [Int64] = [0, 1, 13, 37, 85, 157]
            let failures = [
                "TIMED_OUT", "NO_RESPONSE", "SOCKET_ISSUE", "UNSUCCESSFUL_HTTP_RESPONSE_CODE", "PREMATURE_CLOSE",
            ]
            for offset in offsets.prefix(r.int(in: 2...6)) {
                attempts.append(
                    .object([
                        ("attemptDate", .int(time + offset * SimTime.hour + r.int64(in: 0...900))),
                        ("sendAttemptResult", .string(r.pick(failures))),
                    ]))
            }
        } else {
            attempts.append(
                .object([
                    ("attemptDate", .int(time + r.int64(in: 100...900))), ("sendAttemptResult", .string("SUCCESS")),
                ]))
        }
        let item = JSONOutput.object([("signedPayload", .string(jws)), ("sendAttempts", .array(attempts))])
        return ChunkOutput.Line(time: time, text: item.text)
    }

    // MARK: - Ordering and duplicates

    /// Apple retried: the same line again, later in the same file or in the next month's.
    func duplicate(
        _ line: ChunkOutput.Line, month: Int, v2: Bool, into output: inout ChunkOutput, random r: inout SimRandom
    ) {
        var target = month
        var time = line.time + r.int64(in: SimTime.hour...(3 * SimTime.day))
        if r.chance(0.3), month + 1 < world.endMonth {
            target = month + 1
            time = max(time, SimTime.monthStart(month + 1) + r.int64(in: 0...SimTime.day))
        }
        let copy = ChunkOutput.Line(time: time, text: line.text)
        if v2 {
            output.v2Lines[target, default: []].append(copy)
            output.tally.add("duplicates", "v2Notification")
            output.tally.add("documents", "v2_notification")
        } else {
            output.v1Lines[target, default: []].append(copy)
            output.tally.add("duplicates", "v1Notification")
            output.tally.add("documents", "v1_notification")
        }
    }

    /// Sorts each file's lines by time; with noise, some neighbours swap (out-of-order delivery).
    private func finishOrdering(_ output: inout ChunkOutput, random r: inout SimRandom) {
        func order(_ lines: inout [ChunkOutput.Line]) {
            lines = lines.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(
                \.element)
            guard world.noise, lines.count > 1 else { return }
            for i in 1..<lines.count where r.chance(0.1) {
                let j = max(0, i - r.int(in: 1...5))
                lines.swapAt(i, j)
            }
        }
        for month in output.v1Lines.keys.sorted() { order(&output.v1Lines[month, default: []]) }
        for month in output.v2Lines.keys.sorted() { order(&output.v2Lines[month, default: []]) }
    }
}
