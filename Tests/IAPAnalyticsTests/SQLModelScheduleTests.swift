import Foundation
import Synchronization
import Testing

@testable import IAPAnalytics

/// Which model a free worker takes next in a build on several connections.
@Suite("SQLModelSchedule")
struct SQLModelScheduleTests {
    // v (a view of the store) ← a; b alone; c ← a, b; m (a view) ← c.
    let v = SQLModel("v", .staging, .view)
    let a = SQLModel("a", .intermediate, .temporaryTable)
    let b = SQLModel("b", .intermediate, .temporaryTable)
    let c = SQLModel("c", .marts, .table)
    let m = SQLModel("m", .intermediate, .temporaryView)

    func schedule() -> SQLModelSchedule {
        SQLModelSchedule([(v, []), (a, ["v"]), (b, []), (c, ["a", "b"]), (m, ["c"])])
    }

    @Test func readyModelsGoToFreeWorkersInCatalogOrderWithTheViewsTheyMayRead() throws {
        let plan = schedule()
        // The first worker gets a (v, a view, is ready at once and comes with it); the second gets b
        let first = try #require(plan.next(createdViews: []))
        #expect(first.model.name == "a")
        #expect(first.views.map(\.name) == ["v"])
        #expect(first.placements.keys.sorted() == ["v"])
        let second = try #require(plan.next(createdViews: []))
        #expect(second.model.name == "b")
        // c waits for both; once they are built, it comes with where they are, and no view its worker has
        plan.finished(a, on: 0)
        plan.finished(b, on: 1)
        let third = try #require(plan.next(createdViews: ["v"]))
        #expect(third.model.name == "c")
        #expect(third.views.isEmpty)
        #expect(third.placements["a"] == .some(0))
        #expect(third.placements["b"] == .some(1))
        #expect(third.placements["v"] == .some(nil))
        // Then nothing is left to start (m is a view), and the tables are where they were built
        plan.finished(c, on: 0)
        #expect(plan.next(createdViews: ["v"]) == nil)
        #expect(plan.tablePlacements == ["a": 0, "b": 1, "c": 0])
        #expect(plan.failure == nil)
    }

    @Test func aWorkerWaitsForTheModelsItNeedsAndStopsAtAFailure() throws {
        let plan = schedule()
        _ = plan.next(createdViews: [])  // a
        _ = plan.next(createdViews: [])  // b
        // A third worker asks while c waits for a and b
        let taken = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            taken.withLock { $0 = plan.next(createdViews: [])?.model.name }
            done.signal()
        }.start()
        #expect(done.wait(timeout: .now() + .milliseconds(200)) == .timedOut)
        plan.finished(a, on: 0)
        #expect(done.wait(timeout: .now() + .milliseconds(200)) == .timedOut)
        plan.finished(b, on: 1)
        #expect(done.wait(timeout: .now() + .seconds(10)) == .success)
        #expect(taken.withLock { $0 } == "c")
        // A failure stops every worker that asks afterwards
        struct Boom: Error {}
        plan.failed(Boom())
        #expect(plan.next(createdViews: []) == nil)
        #expect(plan.failure is Boom)
    }

    @Test func amongReadyModelsTheOneMoreTablesWaitOnGoesFirst() throws {
        // Given x and y ready at once, x first in the catalog, but two tables waiting on y and none on x
        let x = SQLModel("x", .intermediate, .temporaryTable)
        let y = SQLModel("y", .intermediate, .temporaryTable)
        let z = SQLModel("z", .marts, .table)
        let plan = SQLModelSchedule([(x, []), (y, []), (v, ["y"]), (z, ["v"])])
        // Then y goes first (through the view v, which counts for nothing), then x; z once y is built
        #expect(plan.next(createdViews: [])?.model.name == "y")
        #expect(plan.next(createdViews: [])?.model.name == "x")
        plan.finished(y, on: 0)
        let last = try #require(plan.next(createdViews: []))
        #expect(last.model.name == "z")
        #expect(last.views.map(\.name) == ["v"])
    }
}
