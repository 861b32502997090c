/// One SQL model: a file `SQL/<layer>/<name>.sql` holding one `select` (written with ``SQLTemplate`` functions),
/// which the runner materialises as the catalog says: a view, a temporary view or table, or a table.
public struct SQLModel: Sendable, Equatable {
    /// The dbt layer, which is also the model's folder.
    public enum Layer: String, Sendable, CaseIterable {
        /// 1:1 with a store table; views in the store's schema.
        case staging
        /// Re-grained logic; TEMP tables or TEMP views (gone with the connection).
        case intermediate
        /// What reports read; tables in the store's schema.
        case marts
    }

    /// How the runner materialises the model.
    public enum Materialization: String, Sendable {
        case view
        case temporaryView = "temp_view"
        case temporaryTable = "temp_table"
        case table

        /// True for the models that live with the connection only.
        public var isTemporary: Bool { self == .temporaryView || self == .temporaryTable }
        /// True for views (no rows of their own, no indexes).
        public var isView: Bool { self == .view || self == .temporaryView }
    }

    /// An index the runner builds on a table model right after it, for the models that look rows up in it.
    public struct Index: Sendable, Equatable {
        public let name: String
        public let columns: [String]
        public let isUnique: Bool

        /// A non-unique index.
        public static func on(_ name: String, _ columns: [String]) -> Index {
            Index(name: name, columns: columns, isUnique: false)
        }

        /// A unique index: the model's grain (the build fails if the SQL ever breaks it).
        public static func unique(_ name: String, _ columns: [String]) -> Index {
            Index(name: name, columns: columns, isUnique: true)
        }
    }

    /// The model's name: its view or table name and its file name without `.sql`.
    public let name: String
    public let layer: Layer
    public let materialization: Materialization
    public let indexes: [Index]
    /// The columns that identify one row (the "Grain:" its file names): unique and never null, checked on every
    /// mart by `MartGrainTests` as dbt's `unique` and `not_null` tests do. Empty for a one-row model.
    public let grain: [String]

    /// Creates a model entry.
    public init(
        _ name: String, _ layer: Layer, _ materialization: Materialization, indexes: [Index] = [], grain: [String] = []
    ) {
        self.name = name
        self.layer = layer
        self.materialization = materialization
        self.indexes = indexes
        self.grain = grain
    }

    /// The path of its file relative to the SQL folder.
    public var relativePath: String { "\(layer.rawValue)/\(name).sql" }
}
