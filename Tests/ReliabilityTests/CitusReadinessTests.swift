import Foundation
import IAPPipeline
import IAPTestSupport
import Testing

@testable import IAPStore

/// The PostgreSQL schema is in the shape Citus needs: every table has a role
/// (``CitusTableRoles``), every unique key of a distributed table holds its distribution column, and every foreign
/// key is one Citus accepts. And on real data, the lineage joins of the models lose nothing: every row a join by ID
/// alone would find, the join that also names the lineage finds.
@Suite struct CitusReadinessTests {
    private func role(of table: String) -> CitusTableRoles.Role? {
        CitusTableRoles.tables.first { $0.table == table }?.role
    }

    private func distributionColumn(of table: String) -> String? {
        if case .distributed(let column, _) = role(of: table) { return column }
        return nil
    }

    @Test func everyUniqueKeyAndForeignKeyIsOneCitusAccepts() throws {
        let store = try StoreLocation(try TestPostgres.freshStore()).open()
        let schema = [SQLValue.text(store.schema)]
        let tables = try store.read { connection in
            try connection.rows(
                "SELECT tablename::text FROM pg_tables WHERE schemaname = ? ORDER BY 1", schema
            ).compactMap { $0[0].text }
        }
        #expect(
            tables == CitusTableRoles.tables.map(\.table).sorted(),
            "every table has a Citus role, and only tables that exist")

        // Primary keys and unique indexes, each with its columns.
        let uniqueKeys = try store.read { connection in
            try connection.rows(
                """
                SELECT t.relname::text, i.relname::text,
                    array_to_string(array(
                        SELECT a.attname FROM unnest(x.indkey) WITH ORDINALITY AS k (attnum, n)
                        INNER JOIN pg_attribute AS a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.n
                    ), ',')
                FROM pg_index AS x
                INNER JOIN pg_class AS t ON t.oid = x.indrelid
                INNER JOIN pg_class AS i ON i.oid = x.indexrelid
                INNER JOIN pg_namespace AS s ON s.oid = t.relnamespace
                WHERE s.nspname = ? AND x.indisunique
                ORDER BY 1, 2
                """, schema)
        }
        var checkedDistributed = 0
        for key in uniqueKeys {
            let table = key[0].text ?? "", index = key[1].text ?? "",
                columns = (key[2].text ?? "").split(separator: ",").map(String.init)
            guard let column = distributionColumn(of: table) else { continue }
            checkedDistributed += 1
            #expect(
                columns.contains(column), "\(index) on \(table) (\(columns)) lacks the distribution column \(column)")
        }
        #expect(checkedDistributed >= 6, "the distributed tables' keys were found")

        // Foreign keys: to a reference table from anywhere but a reference table to a distributed one; between
        // distributed tables only within a co-location group, pairing their distribution columns.
        let foreignKeys = try store.read { connection in
            try connection.rows(
                """
                SELECT c.conname::text, t.relname::text, r.relname::text,
                    array_to_string(array(
                        SELECT a.attname FROM unnest(c.conkey) WITH ORDINALITY AS k (attnum, n)
                        INNER JOIN pg_attribute AS a ON a.attrelid = t.oid AND a.attnum = k.attnum ORDER BY k.n), ','),
                    array_to_string(array(
                        SELECT a.attname FROM unnest(c.confkey) WITH ORDINALITY AS k (attnum, n)
                        INNER JOIN pg_attribute AS a ON a.attrelid = r.oid AND a.attnum = k.attnum ORDER BY k.n), ',')
                FROM pg_constraint AS c
                INNER JOIN pg_class AS t ON t.oid = c.conrelid
                INNER JOIN pg_class AS r ON r.oid = c.confrelid
                INNER JOIN pg_namespace AS s ON s.oid = t.relnamespace
                WHERE s.nspname = ? AND c.contype = 'f'
                ORDER BY 1
                """, schema)
        }
        #expect(foreignKeys.count >= 4)
        for key in foreignKeys {
            let name = key[0].text ?? "", from = key[1].text ?? "", to = key[2].text ?? ""
            let fromColumns = (key[3].text ?? "").split(separator: ",").map(String.init)
            let toColumns = (key[4].text ?? "").split(separator: ",").map(String.init)
            switch (role(of: from), role(of: to)) {
            case (_, .reference?):
                continue
            case (.distributed(let fromColumn, let fromGroup)?, .distributed(let toColumn, let toGroup)?):
                #expect(fromGroup == toGroup, "\(name): \(from) → \(to) crosses co-location groups")
                let pairs = Set(zip(fromColumns, toColumns).map { "\($0)=\($1)" })
                #expect(pairs.contains("\(fromColumn)=\(toColumn)"), "\(name) does not pair the distribution columns")
            default:
                Issue.record("\(name): \(from) → \(to) is a foreign key Citus refuses")
            }
        }

        // One co-location group has one distribution column type.
        let types = try store.read { connection in
            try Dictionary(
                uniqueKeysWithValues: connection.rows(
                    """
                    SELECT table_name::text || '.' || column_name::text, data_type::text || ' ' || coalesce(collation_name::text, '')
                    FROM information_schema.columns WHERE table_schema = ?
                    """, schema
                ).map { ($0[0].text ?? "", $0[1].text ?? "") })
        }
        var groupTypes: [String: Set<String>] = [:]
        for (table, role) in CitusTableRoles.tables {
            guard case .distributed(let column, let group) = role else { continue }
            groupTypes[group, default: []].insert(types["\(table).\(column)"] ?? "missing")
        }
        for (group, found) in groupTypes {
            #expect(found.count == 1 && !found.contains("missing"), "\(group): \(found)")
        }
    }

    @Test func theDistributionScriptGivesEveryTableItsRoleAnchorsFirst() throws {
        let lines = CitusTableRoles.distributionScript.split(separator: "\n").map(String.init)
        #expect(lines.count == CitusTableRoles.tables.count)
        #expect(lines.contains("SELECT create_reference_table('source_files');"))
        #expect(lines.contains("SELECT create_distributed_table('transactions', 'lineage_id');"))
        #expect(
            lines.contains(
                "SELECT create_distributed_table('renewal_infos', 'original_transaction_id', colocate_with => 'transactions');"
            ))
        let anchor = lines.firstIndex(of: "SELECT create_distributed_table('transactions', 'lineage_id');")
        let member = lines.firstIndex { $0.contains("'notifications'") }
        #expect(anchor != nil && member != nil && anchor! < member!)
        // Documentation/Scaling.md shows the operator exactly this script.
        let scaling = try String(contentsOfFile: CLI.repositoryRoot + "/Documentation/Scaling.md", encoding: .utf8)
        #expect(scaling.contains(CitusTableRoles.distributionScript), "Scaling.md's distribution script is out of date")
    }

    @Test func joiningByLineageFindsEveryRowTheIDAloneFinds() throws {
        let archive = try SimulatedArchive(seed: 23, subscribers: 60, consumableBuyers: 30, refundRings: 2, months: 8)
        let database = try TestPostgres.freshStore()
        _ = try Pipeline(configuration: archive.configuration(database: database, reports: archive.root + "/reports"))
            .run()
        let store = try StoreLocation(database).open()
        let checks: [(what: String, sql: String)] = [
            (
                "versions without their transaction in their lineage",
                """
                SELECT count(*) FROM transaction_versions AS v WHERE NOT EXISTS (
                    SELECT 1 FROM transactions AS t WHERE t.lineage_id = v.lineage_id AND t.transaction_id = v.transaction_id)
                """
            ),
            (
                "notifications whose transaction is stored only in another lineage",
                """
                SELECT count(*) FROM notifications AS n
                WHERE EXISTS (SELECT 1 FROM transactions AS t WHERE t.transaction_id = n.transaction_id)
                    AND NOT EXISTS (SELECT 1 FROM transactions AS t
                        WHERE t.lineage_id = n.lineage_id AND t.transaction_id = n.transaction_id)
                """
            ),
            (
                "V2 renewal infos of another lineage than their notification",
                """
                SELECT count(*) FROM renewal_infos AS r
                INNER JOIN notifications AS n ON n.notification_id = r.document_id
                WHERE n.format = 'v2' AND n.lineage_id <> r.original_transaction_id
                """
            ),
            (
                "transactions of one ID in two lineages",
                """
                SELECT count(*) FROM (SELECT transaction_id FROM transactions GROUP BY transaction_id HAVING count(*) > 1) AS x
                """
            ),
        ]
        for check in checks {
            #expect(try store.read { try $0.integer(check.sql) } == 0, "\(check.what)")
        }
        // The data held what the joins are about.
        #expect(try store.read { try $0.integer("SELECT count(*) FROM renewal_infos") }! > 100)
        #expect(try store.read { try $0.integer("SELECT count(DISTINCT lineage_id) FROM transactions") }! > 50)
    }
}
