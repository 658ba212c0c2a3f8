internal import GRDB

extension SQLiteStore {
    /// The schema's migrations, in order. Never edit a released one: add the next.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: passes, devices, registrations, push queue") { db in
            try db.execute(sql: version1)
        }
        return migrator
    }()

    private static let version1 = """
        CREATE TABLE passes (
            pass_type_identifier TEXT NOT NULL,
            serial_number TEXT NOT NULL,
            authentication_token TEXT NOT NULL,
            template TEXT NOT NULL,
            data BLOB NOT NULL,
            personalization BLOB,
            voided INTEGER NOT NULL DEFAULT 0,
            download_token TEXT NOT NULL UNIQUE,
            update_tag INTEGER NOT NULL,
            last_modified INTEGER NOT NULL,
            created_at INTEGER NOT NULL,
            PRIMARY KEY (pass_type_identifier, serial_number)
        );
        CREATE INDEX passes_update_tag ON passes (update_tag);

        CREATE TABLE devices (
            device_library_identifier TEXT NOT NULL PRIMARY KEY,
            push_token TEXT NOT NULL,
            updated_at REAL NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX devices_push_token ON devices (push_token);

        CREATE TABLE registrations (
            device_library_identifier TEXT NOT NULL REFERENCES devices (device_library_identifier) ON DELETE CASCADE,
            pass_type_identifier TEXT NOT NULL,
            serial_number TEXT NOT NULL,
            created_at REAL NOT NULL,
            PRIMARY KEY (device_library_identifier, pass_type_identifier, serial_number),
            FOREIGN KEY (pass_type_identifier, serial_number)
                REFERENCES passes (pass_type_identifier, serial_number) ON DELETE CASCADE
        ) WITHOUT ROWID;
        CREATE INDEX registrations_pass ON registrations (pass_type_identifier, serial_number);

        CREATE TABLE counters (
            name TEXT NOT NULL PRIMARY KEY,
            value INTEGER NOT NULL
        ) WITHOUT ROWID;
        INSERT INTO counters (name, value) VALUES ('update_tag', 0);

        -- AUTOINCREMENT: an id is never reused, so a late completePush cannot hit a newer entry.
        CREATE TABLE push_queue (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            push_token TEXT NOT NULL,
            pass_type_identifier TEXT NOT NULL,
            generation INTEGER NOT NULL DEFAULT 1,
            attempts INTEGER NOT NULL DEFAULT 0,
            not_before REAL NOT NULL,
            claimed_until REAL,
            queued_at REAL NOT NULL,
            UNIQUE (push_token, pass_type_identifier)
        );
        """
}
