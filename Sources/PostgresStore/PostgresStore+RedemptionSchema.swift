extension PostgresStore {
    /// Version 7, redemption (see ``PassStore/RedemptionStore``): each pass's count of valid scans (a column with a
    /// constant default: adding it rewrites no row), the log of every scan with its idempotency key, and an index of
    /// passes by the barcode message their data sets. `convert_from` is only `STABLE`, so the expression is wrapped in
    /// an `IMMUTABLE` function (the data is always UTF-8 JSON) that the index and the lookup both call. The index is
    /// built inside the migration's transaction, reading the passes table once. It is a hash index, as version 17
    /// makes it for stores that first had a B-tree here: a store upgraded from before this version may hold a
    /// barcode message longer than a B-tree entry takes (2,704 bytes), which made the upgrade fail on every start.
    static let redemptionTables: [String] = [
        "ALTER TABLE passes ADD COLUMN redemptions integer NOT NULL DEFAULT 0",
        """
        CREATE FUNCTION tessera_barcode_message(data bytea) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
            SELECT COALESCE(convert_from(data, 'UTF8')::jsonb ->> 'barcodeMessage',
                            convert_from(data, 'UTF8')::jsonb #>> '{barcodes,0,message}')
        $$
        """,
        "CREATE INDEX passes_barcode_message ON passes USING hash (tessera_barcode_message(data))",
        """
        CREATE TABLE redemptions (
            id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            pass_type_identifier text,
            serial_number text,
            result text NOT NULL,
            place text,
            scanned_at timestamptz NOT NULL,
            redemptions integer NOT NULL,
            idempotency_key text UNIQUE,
            request_hash text NOT NULL
        )
        """,
        "CREATE INDEX redemptions_pass ON redemptions (pass_type_identifier, serial_number, result, id)",
    ]

    /// Version 17: passes by barcode message through a hash index. A B-tree entry holds the message itself and is
    /// refused past 2,704 bytes (a QR code's signed token of 2,800 characters made the pass's write fail); a hash
    /// index keeps the message's hash, and a scan only ever looks a message up by equality.
    static let barcodeMessageHashIndex: [String] = [
        "DROP INDEX passes_barcode_message",
        "CREATE INDEX passes_barcode_message ON passes USING hash (tessera_barcode_message(data))",
    ]
}
