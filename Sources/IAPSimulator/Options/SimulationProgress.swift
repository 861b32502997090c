/// How far a simulation run has got, reported after each batch of chunks is written.
public struct SimulationProgress: Sendable, Equatable {
    /// Customers (subscribers, buyers, rings) whose documents are on disk.
    public var entitiesDone: Int
    /// All customers of the run.
    public var entitiesTotal: Int
    /// Documents written so far (lines and page entries).
    public var documentsWritten: Int

    /// Creates a progress report.
    public init(entitiesDone: Int, entitiesTotal: Int, documentsWritten: Int) {
        self.entitiesDone = entitiesDone
        self.entitiesTotal = entitiesTotal
        self.documentsWritten = documentsWritten
    }

    /// Completed share, 0...1.
    public var fraction: Double { entitiesTotal == 0 ? 1 : Double(entitiesDone) / Double(entitiesTotal) }
}
