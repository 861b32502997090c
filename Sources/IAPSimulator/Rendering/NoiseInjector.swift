import IAPFormats

/// Adds what real archives also contain: sandbox and TEST notifications, other apps' documents,
/// forged signatures, broken lines and failed order lookups. Chunk 0 always gets at least one of each,
/// so even a tiny run exercises every quarantine path; larger chunks get a few per hundred customers.
struct NoiseInjector {
    let builder: ChunkBuilder
    let chunk: Int
    let entities: Int

    private var world: SimWorld { builder.world }

    func inject(into output: inout ChunkOutput, random r: inout SimRandom, context: ChunkBuilder.NoiseContext) throws {
        let hasV2 = world.v2Start < world.horizon
        let hasV1 = world.v2Start > world.windowStart
        for i in 0..<count(0.02, &r) {
            if hasV2 { try sandboxV2(i, into: &output, random: &r) }
            if hasV1 { sandboxV1(i, into: &output, random: &r) }
        }
        if hasV2 {
            for i in 0..<count(0.01, &r) { try testNotification(i, into: &output, random: &r) }
            for i in 0..<count(0.01, &r) { try otherAppV2(i, into: &output, random: &r) }
            for i in 0..<count(0.01, &r) { try untrustedRefund(i, context.refundable, into: &output, random: &r) }
            if let last = context.lastV2 {
                for _ in 0..<count(0.01, &r) { alteredCopy(last, into: &output, random: &r) }
            }
        }
        if hasV1 {
            for i in 0..<count(0.005, &r) { otherAppV1(i, into: &output, random: &r) }
        }
        for _ in 0..<count(0.01, &r) { brokenLines(context, into: &output, random: &r) }
        for _ in 0..<count(0.005, &r) { invalidOrder(into: &output, random: &r) }
    }

    /// At least one in chunk 0, then about `rate` per customer.
    private func count(_ rate: Double, _ r: inout SimRandom) -> Int {
        let expected = Double(entities) * rate
        let base = Int(expected)
        let extra = r.chance(expected - Double(base)) ? 1 : 0
        return chunk == 0 ? max(1, base + extra) : base + extra
    }

    private func v2Time(_ r: inout SimRandom) -> Int64 {
        world.v2Start + r.int64(in: 0...max(0, world.horizon - world.v2Start - 1))
    }

    private func v1Time(_ r: inout SimRandom) -> Int64 {
        world.windowStart + r.int64(in: 0...max(0, min(world.v2Start, world.horizon) - world.windowStart - 1))
    }

    /// A purchase by a customer outside the real population (noise namespace).
    private func syntheticEvent(
        _ i: Int, at time: Int64, environment: String, bundleId: String, random r: inout SimRandom
    ) -> SimEvent {
        let product = world.catalog.monthly
        let storefront = world.catalog.storefronts[0]
        let id = world.transactionId(.noise, chunk, i * 8 + r.int(in: 0...7))
        let tx = SimTransaction(
            transactionId: id, originalTransactionId: id,
            webOrderLineItemId: world.webOrderLineItemId(.noise, chunk, i),
            product: product, purchaseDate: time, originalPurchaseDate: time, expiresDate: time + 30 * SimTime.day,
            storefront: storefront, price: product.price(in: storefront.currency), environment: environment,
            bundleId: bundleId)
        let renewal = SimRenewal(
            originalTransactionId: id, productId: product.id, autoRenewProductId: product.id,
            renewalDate: time + 30 * SimTime.day, recentSubscriptionStartDate: time, environment: environment)
        return SimEvent(
            time: time, v2Type: "SUBSCRIBED", v2Subtype: "INITIAL_BUY", v1Type: "INITIAL_BUY",
            transaction: tx, renewal: renewal, status: 1)
    }

    private func appendV2(_ jws: String, at time: Int64, into output: inout ChunkOutput) {
        let line = ChunkOutput.Line(time: time, text: DocumentRenderer.v2Body(jws).text)
        output.v2Lines[SimTime.monthIndex(ofMillis: time), default: []].append(line)
        output.tally.add("documents", "v2_notification")
    }

    private func appendV1(_ body: JSONOutput, at time: Int64, into output: inout ChunkOutput) {
        output.v1Lines[SimTime.monthIndex(ofMillis: time), default: []].append(
            ChunkOutput.Line(time: time, text: body.text))
        output.tally.add("documents", "v1_notification")
    }

    private func sandboxV2(_ i: Int, into output: inout ChunkOutput, random r: inout SimRandom) throws {
        let time = v2Time(&r)
        let event = syntheticEvent(i, at: time, environment: "Sandbox", bundleId: world.bundleId, random: &r)
        appendV2(try builder.renderer.v2Notification(event, uuid: r.uuid()).jws, at: time, into: &output)
        output.tally.add("noise", "sandboxDocuments")
    }

    private func sandboxV1(_ i: Int, into output: inout ChunkOutput, random r: inout SimRandom) {
        let time = v1Time(&r)
        var event = syntheticEvent(i + 1_000, at: time, environment: "Sandbox", bundleId: world.bundleId, random: &r)
        event.autoRenewChangeDate = time
        appendV1(builder.renderer.v1Body(event, environment: "Sandbox", random: &r).0, at: time, into: &output)
        output.tally.add("noise", "sandboxDocuments")
    }

    private func testNotification(_ i: Int, into output: inout ChunkOutput, random r: inout SimRandom) throws {
        let time = v2Time(&r)
        var event = syntheticEvent(i + 2_000, at: time, environment: "Production", bundleId: world.bundleId, random: &r)
        event.v2Type = "TEST"
        event.v2Subtype = nil
        appendV2(try builder.renderer.v2Notification(event, uuid: r.uuid()).jws, at: time, into: &output)
        output.tally.add("noise", "testNotifications")
    }

    private static let otherBundle = "com.example.someotherapp"

    private func otherAppV2(_ i: Int, into output: inout ChunkOutput, random r: inout SimRandom) throws {
        let time = v2Time(&r)
        let event = syntheticEvent(
            i + 3_000, at: time, environment: "Production", bundleId: Self.otherBundle, random: &r)
        let signed = try builder.renderer.v2Notification(
            event, uuid: r.uuid(), bundleId: Self.otherBundle, appAppleId: 987_654_321)
        appendV2(signed.jws, at: time, into: &output)
        output.tally.add("noise", "otherAppDocuments")
    }

    private func otherAppV1(_ i: Int, into output: inout ChunkOutput, random r: inout SimRandom) {
        let time = v1Time(&r)
        var event = syntheticEvent(
            i + 4_000, at: time, environment: "Production", bundleId: Self.otherBundle, random: &r)
        event.autoRenewChangeDate = time
        appendV1(builder.renderer.v1Body(event, bid: Self.otherBundle, random: &r).0, at: time, into: &output)
        output.tally.add("noise", "otherAppDocuments")
    }

    /// A forged refund: a genuine-looking REFUND of a real coin purchase, signed by a chain nobody trusts.
    private func untrustedRefund(
        _ i: Int, _ refundable: SimTransaction?, into output: inout ChunkOutput, random r: inout SimRandom
    ) throws {
        let time = v2Time(&r)
        var event = syntheticEvent(i + 5_000, at: time, environment: "Production", bundleId: world.bundleId, random: &r)
        if var tx = refundable, tx.purchaseDate < time {
            tx.revocationDate = time
            tx.revocationReason = 1
            tx.revocationType = "REFUND_FULL"
            event.transaction = tx
            event.renewal = nil
            event.status = nil
        }
        event.v2Type = "REFUND"
        event.v2Subtype = nil
        let signed = try builder.renderer.v2Notification(event, uuid: r.uuid(), signer: builder.untrusted)
        appendV2(signed.jws, at: time, into: &output)
        output.tally.add("forged", "untrustedChain")
    }

    /// A replay of a genuine notification whose payload was edited after signing (signature kept).
    private func alteredCopy(
        _ last: (line: ChunkOutput.Line, month: Int, payload: JSONOutput, jws: String), into output: inout ChunkOutput,
        random r: inout SimRandom
    ) {
        guard case .object(var members) = last.payload else { return }
        for index in members.indices where members[index].0 == "data" {
            if case .object(var data) = members[index].1 {
                for j in data.indices where data[j].0 == "bundleVersion" { data[j].1 = .string("9.9.9-tampered") }
                members[index].1 = .object(data)
            }
        }
        let segments = last.jws.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3 else { return }
        let forged = segments[0] + "." + Base64Encoding.url(JSONOutput.object(members).bytes) + "." + segments[2]
        let time = last.line.time + r.int64(in: SimTime.minute...SimTime.day)
        let month = min(SimTime.monthIndex(ofMillis: time), world.endMonth - 1)
        output.v2Lines[month, default: []].append(
            ChunkOutput.Line(time: time, text: DocumentRenderer.v2Body(String(forged)).text))
        output.tally.add("documents", "v2_notification")
        output.tally.add("forged", "alteredPayload")
    }

    /// A line cut off mid-write, and one of plain garbage.
    private func brokenLines(
        _ context: ChunkBuilder.NoiseContext, into output: inout ChunkOutput, random r: inout SimRandom
    ) {
        let garbage = [
            "<html><body><h1>502 Bad Gateway</h1></body></html>", "{\"signedPayload\": ", "ok", "\u{FEFF}}{",
        ]
        let source =
            context.lastV2.map { ($0.line, $0.month, true) } ?? context.lastV1.map { ($0.line, $0.month, false) }
        guard let (line, month, v2) = source else { return }
        let cut = String(line.text.prefix(max(1, line.text.count * r.int(in: 30...80) / 100)))
        let lines = [
            ChunkOutput.Line(time: line.time + 1, text: cut),
            ChunkOutput.Line(time: line.time + 2, text: r.pick(garbage)),
        ]
        for broken in lines {
            if v2 {
                output.v2Lines[month, default: []].append(broken)
            } else {
                output.v1Lines[month, default: []].append(broken)
            }
        }
        output.tally.add("brokenLines", "truncatedJSON")
        output.tally.add("brokenLines", "garbage")
    }

    /// A Look Up Order ID answer for an order that is not this app's: status 1, no transactions.
    private func invalidOrder(into output: inout ChunkOutput, random r: inout SimRandom) {
        let body = JSONOutput.object([
            ("orderId", .string(SimWorld.orderId(&r))), ("status", .int(1)), ("signedTransactions", .array([])),
        ])
        output.orderLines.append(body.text)
        output.tally.add("documents", "order_lookup")
        output.tally.add("lookups", "orderLookupInvalid")
    }
}
