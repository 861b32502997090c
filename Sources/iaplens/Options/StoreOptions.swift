import ArgumentParser

/// Where the store is, and an optional configuration file.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The store: a SQLite file, or a PostgreSQL URL postgres://user[:password]@host[:port]/database"
                + "[?schema=name&sslmode=require…] (default schema public; the password may also come from PGPASSWORD or "
                + "~/.pgpass). ingest, run and fetch create the store when missing (a SQLite file in a folder that exists, or the schema); the other commands need an existing one. "
                + "Config key: \"database\".",
            valueName: "file-or-url"))
    var database: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A JSON file of options, keys named like the flags: {\"input\": [\"archive\"], \"bundle-id\": \"com.example.app\"}. Flags win.",
            valueName: "file"))
    var config: String?
}
