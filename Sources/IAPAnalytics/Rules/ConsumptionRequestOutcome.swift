/// The answers `consumption_request_outcomes` derives for a request that has no ``ConsumptionAnswerResult`` of its
/// own, or whose result it qualifies (Documentation/Reports.md "`consumption_requests.csv`"). The model writes them
/// through `{{ consumption_outcome('…') }}`; the pages and the run's summary read them from here.
public enum ConsumptionRequestOutcome: String, Sendable, CaseIterable {
    /// A copy of the request whose signature was not verified: never answered.
    case unverified
    /// Answered, but Apple accepted the answer after its window.
    case answeredLate = "answered_late"
    /// Apple refunded or declined within the window, before any answer.
    case decidedBeforeAnswer = "decided_before_answer"
    /// Not answered within the window.
    case missed
    /// Still inside the window, not answered yet.
    case pending

    /// The days before the analysis date whose missed requests the run's summary warns about: a missed request is
    /// news for a month, then it is history in the month's report.
    public static let recentlyMissedWindowDays: Int64 = 30
    public static var recentlyMissedWindowMs: Int64 { recentlyMissedWindowDays * BusinessRules.millisecondsPerDay }
}
