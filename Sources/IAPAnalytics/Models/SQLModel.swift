/// One SQL model: a file `SQL/<layer>/<name>.sql` that (re)creates one view or table.
public struct SQLModel: Sendable, Equatable {
    /// The dbt layer, which is also the model's folder.
    public enum Layer: String, Sendable, CaseIterable {
        /// 1:1 with a store table; views in the main schema.
        case staging
        /// Re-grained logic; TEMP tables or TEMP views (gone with the connection).
        case intermediate
        /// What reports read; tables in the main schema.
        case marts
    }

    /// How the file materialises the model.
    public enum Materialization: String, Sendable {
        case view
        case temporaryView = "temp_view"
        case temporaryTable = "temp_table"
        case table
    }

    /// The model's name: its view or table name and its file name without `.sql`.
    public let name: String
    public let layer: Layer
    public let materialization: Materialization

    /// Creates a model entry.
    public init(_ name: String, _ layer: Layer, _ materialization: Materialization) {
        self.name = name
        self.layer = layer
        self.materialization = materialization
    }

    /// The path of its file relative to the SQL folder.
    public var relativePath: String { "\(layer.rawValue)/\(name).sql" }
}
