/// What each store table would be on Citus (distributed PostgreSQL), the plan `Documentation/Scaling.md` explains:
/// distributed by a column (rows with one value on one shard, tables with the same column co-located), or a
/// reference table copied to every node. `CitusReadinessTests` holds the PostgreSQL schema to it, because
/// `create_distributed_table` refuses a table unless every primary key and unique index contains its
/// distribution column, and a foreign key between distributed tables must include both distribution columns.
///
/// iaplens never calls Citus itself (no Citus server here); ``distributionScript`` is what an operator would run
/// once, on a store created by iaplens, before the first ingest.
public enum CitusTableRoles {
    public enum Role: Sendable, Equatable {
        /// Distributed by `column`, co-located with the other tables of `group`.
        case distributed(column: String, group: String)
        /// Small and read everywhere: a copy on every node.
        case reference
    }

    /// Every table iaplens's migrations create, with its role. Order: references first (foreign keys from
    /// distributed tables point at them), then each co-location group, its first table the group's anchor.
    public static let tables: [(table: String, role: Role)] = [
        ("iaplens_migrations", .reference),
        ("store_settings", .reference),
        ("runs", .reference),
        ("source_files", .reference),
        ("ref_products", .reference),
        ("ref_accounts", .reference),
        ("ref_reviews", .reference),
        ("order_lookups", .reference),
        ("order_lookup_transactions", .reference),
        ("fetch_cursors", .reference),
        ("consumption_answers", .reference),
        // Apple's financial reports: a few thousand aggregate rows a month, joined to every shard's sales by day.
        ("apple_reports", .reference),
        ("apple_report_days", .reference),
        ("apple_report_rows", .reference),
        // Apple's payment summaries: one a month, a row per region.
        ("apple_payment_summaries", .reference),
        ("apple_payment_rows", .reference),
        // A document's rows are found by the file they came from: the run's progress, quarantine.
        ("documents", .distributed(column: "file_sha256", group: "files")),
        ("quarantine", .distributed(column: "file_sha256", group: "files")),
        // A purchase lineage: its transactions, their snapshots, its notifications and renewal states.
        ("transactions", .distributed(column: "lineage_id", group: "lineages")),
        ("transaction_versions", .distributed(column: "lineage_id", group: "lineages")),
        ("notifications", .distributed(column: "lineage_id", group: "lineages")),
        ("renewal_infos", .distributed(column: "original_transaction_id", group: "lineages")),
    ]

    /// The Citus calls that give every table its role, in an order Citus accepts.
    public static var distributionScript: String {
        var anchors: [String: String] = [:]
        return tables.map { table, role in
            switch role {
            case .reference:
                return "SELECT create_reference_table('\(table)');"
            case .distributed(let column, let group):
                guard let anchor = anchors[group] else {
                    anchors[group] = table
                    return "SELECT create_distributed_table('\(table)', '\(column)');"
                }
                return "SELECT create_distributed_table('\(table)', '\(column)', colocate_with => '\(anchor)');"
            }
        }.joined(separator: "\n")
    }
}
