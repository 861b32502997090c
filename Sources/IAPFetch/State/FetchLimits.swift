/// How far one fetch may go before it stops on its own (Documentation/Fetching.md "When Apple's API
/// misbehaves"): a server that paginates without end, or a history too long for one run, must not hold the store's
/// run lock until someone notices. Every page is saved before its cursor moves, so stopping loses nothing: the
/// next fetch continues.
public struct FetchLimits: Sendable {
    /// The whole fetch: under an hour, so an hourly schedule's next run finds the lock free.
    public var duration: Duration = .seconds(50 * 60)
    /// Pages of one notification-history window. Apple's pages hold up to 20 notifications: 100,000 pages is two
    /// million notifications in one window, more than Apple's 180 days of history hold for any app.
    public var pagesPerWindow = 100_000
    /// Pages of one customer's refund history (each holds up to 20 refunds).
    public var pagesPerCustomer = 1_000

    public init() {}

    /// The moment the fetch has to stop, from its start.
    func deadline(from start: ContinuousClock.Instant) -> FetchDeadline {
        FetchDeadline(end: start + duration, limit: duration)
    }
}

/// The end of one fetch's time (``FetchLimits/duration``), checked before every request.
struct FetchDeadline: Sendable {
    let end: ContinuousClock.Instant
    let limit: Duration

    /// Throws ``FetchError/outOfTime(limit:)`` once the time is up.
    func check() throws(FetchError) {
        if ContinuousClock.now >= end { throw .outOfTime(limit: "\(limit.components.seconds / 60) minutes") }
    }
}
