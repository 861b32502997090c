import ArgumentParser

/// Where the store is, and an optional configuration file.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The store: a SQLite file (created if missing), or a PostgreSQL URL postgres://user[:password]@host[:port]/database"
            + "[?schema=name&sslmode=require…] (the schema is created if missing; default public; the password may also "
            + "come from PGPASSWORD or ~/.pgpass). Config key: \"database\".",
        valueName: "file-or-url"))
    var database: String?

    @Option(name: .long, help: ArgumentHelp(
        "A JSON file of options, keys named like the flags: {\"input\": [\"archive\"], \"bundle-id\": \"com.example.app\"}. Flags win.",
        valueName: "file"))
    var config: String?
}
