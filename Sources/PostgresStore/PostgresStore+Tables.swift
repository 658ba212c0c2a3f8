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
            // A device replacing its push token takes what is owed to the old one (see SQLiteStore.movePushes): queued
            // pushes (a claimed one gets a new generation, so a send in flight to the old token leaves it for the next
            // claim) and the pushes campaigns hold. An entry the new token already has for a type is kept and the old
            // token's dropped. While another device still has the old token, its queued pushes stay and the new token
            // gets its own. Every part reads the statement's one snapshot, so the moved and the dropped rows are apart.
            // The old token's entries are locked first, in id order, as every other writer of the queue locks them
            // (in the index's token and type order, a completion holding one and waiting for the next deadlocked).
            let queue = names.pushQueue
            let held = names.kind == ItemTables.passes.kind ? """
                , moved_held AS (
                    UPDATE campaign_pushes c SET push_token = $2
                    WHERE c.campaign_id IN (SELECT id FROM campaigns WHERE pushes_held > 0)
                    AND c.push_token = (SELECT push_token FROM replaced)
                    AND NOT EXISTS (SELECT 1 FROM campaign_pushes n WHERE n.campaign_id = c.campaign_id
                                    AND n.push_token = $2 AND n.pass_type_identifier = c.pass_type_identifier)
                    RETURNING 1
                ), dropped_held AS (
                    DELETE FROM campaign_pushes c
                    WHERE c.campaign_id IN (SELECT id FROM campaigns WHERE pushes_held > 0)
                    AND c.push_token = (SELECT push_token FROM replaced)
                    AND EXISTS (SELECT 1 FROM campaign_pushes n WHERE n.campaign_id = c.campaign_id
                                AND n.push_token = $2 AND n.pass_type_identifier = c.pass_type_identifier)
                    RETURNING 1
                )
                """ : ""
            register = """
                WITH pass AS (
                    SELECT 1 FROM \(items) WHERE pass_type_identifier = $3 AND serial_number = $4
                ), previous AS (
                    SELECT d.push_token, EXISTS (SELECT 1 FROM \(devices) o
                                                 WHERE o.push_token = d.push_token AND o.device_library_identifier <> $1) AS shared
                    FROM \(devices) d
                    WHERE d.device_library_identifier = $1 AND d.push_token <> $2 AND EXISTS (SELECT 1 FROM pass)
                ), replaced AS (
                    SELECT push_token FROM previous WHERE NOT shared
                ), copied AS (
                    INSERT INTO \(queue) (push_token, pass_type_identifier, not_before, queued_at)
                    SELECT $2, q.pass_type_identifier, $5, q.queued_at FROM \(queue) q
                    WHERE q.push_token = (SELECT push_token FROM previous WHERE shared)
                    ON CONFLICT (push_token, pass_type_identifier) DO NOTHING
                    RETURNING 1
                ), locked AS MATERIALIZED (
                    SELECT id FROM \(queue) WHERE push_token = (SELECT push_token FROM replaced) ORDER BY id FOR UPDATE
                ), moved AS (
                    UPDATE \(queue) q SET push_token = $2, generation = q.generation + 1, claimed_until = NULL,
                        not_before = LEAST(q.not_before, $5)
                    WHERE q.id IN (SELECT id FROM locked)
                    AND NOT EXISTS (SELECT 1 FROM \(queue) n WHERE n.push_token = $2 AND n.pass_type_identifier = q.pass_type_identifier)
                    RETURNING 1
                ), dropped AS (
                    DELETE FROM \(queue) q
                    WHERE q.id IN (SELECT id FROM locked)
                    AND EXISTS (SELECT 1 FROM \(queue) n WHERE n.push_token = $2 AND n.pass_type_identifier = q.pass_type_identifier)
                    RETURNING 1
                )\(held), device AS (
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
