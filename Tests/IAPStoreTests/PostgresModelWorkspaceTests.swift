import Foundation
import IAPTestSupport
import Testing

@testable import IAPStore

/// The sessions PostgreSQL builds models in at once, against the real server: one scratch schema of iaplens's own,
/// the store changed only by the publishing transaction, and a schema of that name iaplens did not make never
/// touched.
@Suite struct PostgresModelWorkspaceTests {
    func scratchSchemaCount(_ store: any StoreEngine, _ schema: String) throws -> Int64? {
        try store.read { try $0.integer("select count(*) from pg_namespace where nspname = ?", [.text(schema)]) }
    }

    @Test func sessionsShareAScratchSchemaAndOnlyPublishChangesTheStore() throws {
        // Given a workspace of two sessions over a store
        let url = try TestPostgres.freshStore()
        let store = try StoreLocation(url).open()
        let scratch = PostgresModelWorkspace.scratchSchema(of: try PostgresURL(url).schema)
        #expect(try store.makeModelWorkspace(workers: 1) == nil)
        let workspace = try #require(try store.makeModelWorkspace(workers: 2))
        #expect(try scratchSchemaCount(store, scratch) == 1)
        // When one session builds a table and the other one from it
        let first = workspace.schema(ofWorker: 0)
        try workspace.withWorker(0) {
            try $0.executeScript("create unlogged table \(first).numbers as select 1 as n union all select 2")
        }
        try workspace.withWorker(1) {
            try $0.executeScript("create unlogged table \(first).doubled as select n * 2 as n from \(first).numbers")
        }
        // Then the store has neither until a publishing transaction copies it; one that fails copies nothing
        #expect(try store.read { try $0.tableExists("doubled") } == false)
        struct Abandoned: Error {}
        #expect(throws: Abandoned.self) {
            try workspace.publish { connection in
                try connection.executeScript("create table doubled as select * from \(first).doubled")
                throw Abandoned()
            }
        }
        #expect(try store.read { try $0.tableExists("doubled") } == false)
        try workspace.publish { try $0.executeScript("create table doubled as select * from \(first).doubled") }
        #expect(try store.read { try $0.integer("select sum(n) from doubled") } == 6)
        // And closing drops the scratch schema (twice is harmless)
        workspace.close()
        workspace.close()
        #expect(try scratchSchemaCount(store, scratch) == 0)
    }

    @Test func aSchemaOfThatNameIaplensDidNotMakeIsNeverTouched() throws {
        // Given someone else's schema with the scratch schema's name, holding a table
        let url = try TestPostgres.freshStore()
        let store = try StoreLocation(url).open()
        let scratch = PostgresModelWorkspace.scratchSchema(of: try PostgresURL(url).schema)
        try store.write { connection in
            try connection.executeScript("create schema \"\(scratch)\"; create table \"\(scratch)\".theirs (x int)")
        }
        // Then no workspace (the models build in one session), and their table is still there
        #expect(try store.makeModelWorkspace(workers: 2) == nil)
        #expect(try store.read { try $0.integer("select count(*) from \"\(scratch)\".theirs") } == 0)
    }

    @Test func aKilledRunsScratchSchemaIsReplaced() throws {
        // Given the scratch schema a killed analyze left, with a table in it
        let url = try TestPostgres.freshStore()
        let store = try StoreLocation(url).open()
        let scratch = PostgresModelWorkspace.scratchSchema(of: try PostgresURL(url).schema)
        let killed = try #require(try store.makeModelWorkspace(workers: 2))
        try killed.withWorker(0) {
            try $0.executeScript("create unlogged table \(killed.schema(ofWorker: 0)).stale (x int)")
        }
        // When the next analyze opens its workspace
        let workspace = try #require(try store.makeModelWorkspace(workers: 2))
        defer { workspace.close() }
        // Then it starts from an empty scratch schema
        #expect(
            try store.read { connection in
                try connection.integer(
                    "select count(*) from pg_tables where schemaname = ?", [.text(scratch)])
            } == 0)
        _ = killed
    }

    @Test func aRoleThatMayNotCreateSchemasBuildsInOneSession() throws {
        // Given a role that may write the store's schema but not create schemas in the database
        let url = try TestPostgres.freshStore()
        let schema = try PostgresURL(url).schema
        let store = try StoreLocation(url).open()
        let writerURL = try TestPostgres.role(
            "writer", schema: schema, run: { sql in try store.write { try $0.executeScript(sql) } },
            grants: { role in
                "GRANT ALL ON SCHEMA \(schema) TO \(role); GRANT ALL ON ALL TABLES IN SCHEMA \(schema) TO \(role);"
            })
        let writer = try StoreLocation(writerURL).open()
        // Then no workspace: the models build in one session, and no scratch schema was made
        #expect(try writer.makeModelWorkspace(workers: 2) == nil)
        #expect(try scratchSchemaCount(store, PostgresModelWorkspace.scratchSchema(of: schema)) == 0)
    }
}
