/// Apple's books in one currency over some days: units sold and returned, and what Apple pays for them.
public struct AppleTotal: Sendable, Equatable {
    public let currency: String
    public let firstDay: String
    public let lastDay: String
    public let unitsSold: Int64
    public let unitsReturned: Int64
    public let proceedsMilli: Int64

    public init(
        currency: String, firstDay: String, lastDay: String, unitsSold: Int64, unitsReturned: Int64,
        proceedsMilli: Int64
    ) {
        self.currency = currency
        self.firstDay = firstDay
        self.lastDay = lastDay
        self.unitsSold = unitsSold
        self.unitsReturned = unitsReturned
        self.proceedsMilli = proceedsMilli
    }
}
