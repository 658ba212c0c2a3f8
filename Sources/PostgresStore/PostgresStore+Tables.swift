import PassStore

extension PostgresStore {
    /// The texts of the prepared statements the device requests run, over one kind's tables (see
    /// ``PassStore/ItemTables``).
    struct DeviceStatements: Sendable {
        /// An item by its key.
        let itemByKey: String
        /// An item by its key, or the first by key in its place, with a found flag first.
        let itemForAuthentication: String
        /// The identifiers and tags of a device's items of one type changed after a tag.
        let changedItems: String
        /// A registration in one statement (see `Register`).
        let register: String

        init(over names: ItemTables) {
            let (items, devices, registrations) = (names.items, names.devices, names.registrations)
            let columns = PostgresStore.passColumns
            itemByKey = "SELECT \(columns) FROM \(items) WHERE pass_type_identifier = $1 AND serial_number = $2"
            itemForAuthentication = """
                (SELECT true, \(columns) FROM \(items) WHERE pass_type_identifier = $1 AND serial_number = $2)
                UNION ALL
                (SELECT false, \(columns) FROM \(items) ORDER BY pass_type_identifier, serial_number LIMIT 1)
                LIMIT 1
                """
            changedItems = """
                SELECT p.serial_number, p.update_tag FROM \(registrations) r
                JOIN \(items) p ON p.pass_type_identifier = r.pass_type_identifier AND p.serial_number = r.serial_number
                WHERE r.device_library_identifier = $1 AND r.pass_type_identifier = $2 AND p.update_tag > $3
                ORDER BY p.update_tag
                """
            register = """
                WITH pass AS (
                    SELECT 1 FROM \(items) WHERE pass_type_identifier = $3 AND serial_number = $4
                ), device AS (
                    INSERT INTO \(devices) (device_library_identifier, push_token, updated_at)
                    SELECT $1, $2, $5 WHERE EXISTS (SELECT 1 FROM pass)
                    ON CONFLICT (device_library_identifier)
                    DO UPDATE SET push_token = EXCLUDED.push_token, updated_at = EXCLUDED.updated_at
                    RETURNING 1
                ), registration AS (
                    INSERT INTO \(registrations) (device_library_identifier, pass_type_identifier, serial_number, created_at)
                    SELECT $1, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM device)
                    ON CONFLICT DO NOTHING
                    RETURNING 1
                ), event AS (
                    INSERT INTO events (type, created_at, type_identifier, identifier, device, data)
                    SELECT $6, $5, $3, $4, $7, $8::jsonb WHERE EXISTS (SELECT 1 FROM registration)
                    RETURNING 1
                )
                SELECT EXISTS (SELECT 1 FROM pass), EXISTS (SELECT 1 FROM registration)
                """
        }
    }

    /// A kind of item at the type level, so each kind's prepared statements have their own names and texts.
    protocol ItemKind: Sendable {
        /// The kind's tables.
        static var tables: ItemTables { get }
        /// The kind's device statements.
        static var statements: DeviceStatements { get }
    }

    /// Passes.
    enum PassKind: ItemKind {
        static let tables = ItemTables.passes
        static let statements = DeviceStatements(over: .passes)
    }

    /// Orders.
    enum OrderKind: ItemKind {
        static let tables = ItemTables.orders
        static let statements = DeviceStatements(over: .orders)
    }
}
