import PassStore

extension SQLiteStore {
    /// The statements the device requests run over one kind's tables (see ``PassStore/ItemTables``), written once.
    /// A class, so a statement's closure captures one reference rather than copies of every text.
    @dynamicMemberLookup
    final class Tables: Sendable {
        /// The table names.
        let names: ItemTables

        /// An item by its key (the device fetch).
        let itemByKey: String
        /// An item by its key, or the last stored one in its place (credential checks).
        let itemForAuthentication: String
        /// An item's template, when it exists (registration).
        let itemTemplate: String
        /// An item's template and authentication token, or a stand-in item's in their place (`0` first), for the
        /// registration that checks the device's credential in the writer: a found and a missing item cost the same.
        let itemTemplateForAuthentication: String
        /// A device's push token when it is not the one given (registration: the token the device replaces).
        let replacedPushToken: String
        /// A device created or its push token updated (registration).
        let upsertDevice: String
        /// A registration added unless present.
        let insertRegistration: String
        /// The identifiers and tags of a device's items of one type changed after a tag (the list request).
        let changedItems: String
        /// The next update tag.
        let nextUpdateTag: String

        /// The statements over the pass tables.
        static let passes = Tables(.passes)
        /// The statements over the order tables.
        static let orders = Tables(.orders)

        /// A table name.
        subscript(dynamicMember keyPath: KeyPath<ItemTables, String>) -> String { names[keyPath: keyPath] }

        private init(_ names: ItemTables) {
            self.names = names
            let (items, devices, registrations) = (names.items, names.devices, names.registrations)
            let columns = SQLiteStore.passColumns
            itemByKey = "SELECT \(columns) FROM \(items) WHERE pass_type_identifier = ? AND serial_number = ?"
            itemForAuthentication = """
                SELECT 1, \(columns) FROM \(items) WHERE pass_type_identifier = ? AND serial_number = ?
                UNION ALL
                SELECT 0, \(columns) FROM \(items) WHERE rowid = (SELECT max(rowid) FROM \(items))
                LIMIT 1
                """
            itemTemplate = "SELECT template FROM \(items) WHERE pass_type_identifier = ? AND serial_number = ?"
            itemTemplateForAuthentication = """
                SELECT 1, template, authentication_token FROM \(items) WHERE pass_type_identifier = ? AND serial_number = ?
                UNION ALL
                SELECT 0, template, authentication_token FROM \(items) WHERE rowid = (SELECT max(rowid) FROM \(items))
                LIMIT 1
                """
            replacedPushToken = "SELECT push_token FROM \(devices) WHERE device_library_identifier = ? AND push_token <> ?"
            upsertDevice = """
                INSERT INTO \(devices) (device_library_identifier, push_token, updated_at) VALUES (?1, ?2, ?3)
                ON CONFLICT (device_library_identifier) DO UPDATE SET push_token = ?2, updated_at = ?3
                """
            insertRegistration = """
                INSERT INTO \(registrations) (device_library_identifier, pass_type_identifier, serial_number, created_at)
                VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING
                """
            // CROSS JOIN keeps SQLite's join order: the device's few registrations first, then each item by key
            // (without statistics the planner may otherwise scan every item of the type).
            changedItems = """
                SELECT p.serial_number, p.update_tag FROM \(registrations) r
                CROSS JOIN \(items) p ON p.pass_type_identifier = r.pass_type_identifier AND p.serial_number = r.serial_number
                WHERE r.device_library_identifier = ? AND r.pass_type_identifier = ? AND p.update_tag > ?
                ORDER BY p.update_tag
                """
            nextUpdateTag = "UPDATE counters SET value = value + 1 WHERE name = '\(names.counter)' RETURNING value"
        }
    }
}
