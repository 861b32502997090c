/// The ranges real App Store data stays in, checked wherever a number enters iaplens (payload decoders, the product
/// catalog). A value outside is not App Store data: its document is quarantined (`bad_field`) with a sentence, so a
/// hostile or broken archive cannot overflow the money arithmetic of the models or stretch the report's months.
///
/// The limits are wide on purpose; each says why.
public enum AppStoreBounds {
    /// Prices in milliunits: Apple's highest price point is about 10,000 USD, 160 million IDR in the currency with
    /// the most units per dollar; 10^12 milliunits (a billion units of any currency) leaves a wide margin and keeps
    /// `price × quantity` (at most 10^14) and the sum of ninety thousand such sales inside 64 bits.
    public static let priceMilli: ClosedRange<Int64> = 0...1_000_000_000_000

    /// Units bought in one transaction: StoreKit caps a purchase's quantity at 10; 100 leaves room.
    public static let quantity: ClosedRange<Int64> = 1...100

    /// A prorated refund's share, in thousandths of a percent (100000 = 100 %).
    public static let revocationPercentage: ClosedRange<Int64> = 0...100_000

    /// Instants (Unix ms): the App Store opened in July 2008, and no date Apple sends lies past 2099 (a subscription
    /// expires a year ahead at most).
    public static let date: ClosedRange<Int64> = 1_199_145_600_000...4_102_444_799_999

    /// `2008-01-01T00:00:00Z … 2099-12-31T23:59:59Z`, for messages.
    public static let dateText = "between 2008-01-01 and 2099-12-31"
}
