import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes ZIP archives of stored entries in one pass into one buffer: each entry's local header and bytes, then the
/// central directory and its end record. Entries are stored, not deflated: PNGs are already compressed and the JSON files
/// are a few kilobytes, while a deflate stream per entry would cost more than the rest of the archive.
///
/// Archives are read with ZIPFoundation; they are written here because ZIPFoundation's `Archive.addEntry` cannot append
/// entries to an in-memory archive cheaply: it computes every entry's CRC-32 itself and takes no precomputed one (on
/// Linux in Swift a byte at a time, since it reaches zlib's `crc32` only through a `zlib` module Linux does not have),
/// and for each entry it reads back and rewrites the whole central directory through a `FILE` memory stream, then the
/// archive is copied out. That was 35 µs of a pass's ~330 µs; writing here, with zlib's CRC-32 and a template's entries
/// prepared once (``Prepared``), costs a few microseconds, most of it copying the template's bytes.
///
/// The fields are those ZIPFoundation writes (version 2.0 to extract, UTF-8 names, made by UNIX with `0644` regular-file
/// permissions, UTC modification times); no ZIP64, so an archive stays under 4 GiB and 65,535 entries.
enum ZipWriter {
    /// Entries written once, such as a template's files: their local headers and bytes, and their central directory
    /// records. Every archive made from them starts with these bytes and continues their central directory.
    struct Prepared: Sendable {
        /// Local headers and bytes of the entries, from offset 0 of the archive.
        let local: Data
        /// Their central directory records.
        let central: Data
        /// How many entries.
        let count: Int

        /// No entries.
        static let empty = Prepared(local: Data(), central: Data(), count: 0)
    }

    /// A new archive of `entries`, in order.
    /// - Parameter entries: Paths and contents.
    /// - Returns: The archive's bytes.
    static func archive(_ entries: [(key: String, value: Data)]) throws -> Data {
        try archive(.empty, adding: entries.map { (path: $0.key, data: $0.value) })
    }

    /// The entries every archive of a template starts with.
    /// - Parameters:
    ///   - entries: Paths and contents, in order.
    ///   - date: The entries' modification time.
    /// - Returns: The prepared entries.
    static func prepare(_ entries: [(path: String, data: Data)], date: Date = Date()) throws -> Prepared {
        let whole = try archive(.empty, adding: entries, date: date)
        // The central directory starts where the end record says; the end record is the last 22 bytes.
        let end = whole.count - endRecordSize
        let centralStart = whole.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: end + 16, as: UInt32.self).littleEndian) }
        return Prepared(local: whole.subdata(in: 0..<centralStart), central: whole.subdata(in: centralStart..<end),
                        count: entries.count)
    }

    /// An archive of the prepared entries followed by `entries`.
    /// - Parameters:
    ///   - prepared: Entries written once (``Prepared/empty`` for none).
    ///   - entries: Paths and contents to add, in order.
    ///   - date: The added entries' modification time.
    /// - Returns: The archive's bytes.
    /// - Throws: ``PassBundleError`` `.io` when the archive would need ZIP64 (4 GiB, 65,535 entries or a 64 KiB name).
    static func archive(_ prepared: Prepared, adding entries: [(path: String, data: Data)], date: Date = Date()) throws -> Data {
        var size = prepared.local.count + prepared.central.count + endRecordSize
        for entry in entries {
            let name = entry.path.utf8.count
            guard name <= Int(UInt16.max) else { throw PassBundleError(.io, "\(entry.path): name too long for a ZIP entry") }
            size += localHeaderSize + centralHeaderSize + 2 * name + entry.data.count
        }
        let count = prepared.count + entries.count
        guard size < Int(UInt32.max), count <= Int(UInt16.max) else {
            throw PassBundleError(.io, "the archive would be larger than a ZIP without ZIP64 holds (\(count) entries, \(size) bytes)")
        }
        guard let buffer = malloc(size) else { throw PassBundleError(.io, "could not allocate \(size) bytes for the archive") }
        let (time, day) = dosTime(date)
        var output = Output(base: buffer)
        output.append(prepared.local)
        var records: [(offset: Int, crc: UInt32)] = []
        records.reserveCapacity(entries.count)
        for entry in entries {
            let crc = Zlib.crc32(entry.data)
            records.append((output.offset, crc))
            output.header(signature: 0x0403_4B50, path: entry.path, crc: crc, size: entry.data.count, time: time, day: day)
            output.append(entry.data)
        }
        let centralStart = output.offset
        output.append(prepared.central)
        for (entry, record) in zip(entries, records) {
            output.header(signature: 0x0201_4B50, path: entry.path, crc: record.crc, size: entry.data.count, time: time,
                          day: day, offset: record.offset)
        }
        let centralSize = output.offset - centralStart
        output.u32(0x0605_4B50)
        output.u16(0)  // this disk
        output.u16(0)  // the disk where the central directory starts
        output.u16(UInt16(count))
        output.u16(UInt16(count))
        output.u32(UInt32(centralSize))
        output.u32(UInt32(centralStart))
        output.u16(0)  // no comment
        precondition(output.offset == size, "ZIP size computed as \(size), written \(output.offset)")
        return Data(bytesNoCopy: buffer, count: size, deallocator: .free)
    }

    private static let localHeaderSize = 30
    private static let centralHeaderSize = 46
    private static let endRecordSize = 22

    /// `date` as MS-DOS time and date in UTC, as ZIPFoundation writes them (years clamped to 1980-2107).
    static func dosTime(_ date: Date) -> (time: UInt16, day: UInt16) {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return (0, 0x21) }
        let year = min(max(Int(parts.tm_year) + 1900, 1980), 2107)
        let time = Int(parts.tm_hour) << 11 | Int(parts.tm_min) << 5 | Int(parts.tm_sec) / 2
        let day = (year - 1980) << 9 | Int(parts.tm_mon + 1) << 5 | Int(parts.tm_mday)
        return (UInt16(time), UInt16(day))
    }

    /// Little-endian writes into the archive's buffer, which was sized for them.
    private struct Output {
        let base: UnsafeMutableRawPointer
        var offset = 0

        init(base: UnsafeMutableRawPointer) { self.base = base }

        mutating func u16(_ value: UInt16) {
            base.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt16.self)
            offset += 2
        }

        mutating func u32(_ value: UInt32) {
            base.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt32.self)
            offset += 4
        }

        mutating func append(_ bytes: UnsafeRawBufferPointer) {
            guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
            (base + offset).copyMemory(from: source, byteCount: bytes.count)
            offset += bytes.count
        }

        mutating func append(_ data: Data) {
            data.withUnsafeBytes { append($0) }
        }

        /// A local file header (`offset` nil) or a central directory record for a stored regular file.
        mutating func header(signature: UInt32, path: String, crc: UInt32, size: Int, time: UInt16, day: UInt16,
                             offset localHeader: Int? = nil) {
            var path = path
            let name = path.utf8.count
            u32(signature)
            if localHeader != nil { u16(0x0315) }  // made by UNIX (3), ZIP 2.1, as ZIPFoundation writes
            u16(20)  // version needed to extract: 2.0
            u16(0x0800)  // names are UTF-8
            u16(0)  // stored
            u16(time)
            u16(day)
            u32(crc)
            u32(UInt32(size))  // compressed size
            u32(UInt32(size))  // uncompressed size
            u16(UInt16(name))
            u16(0)  // no extra field
            if let localHeader {
                u16(0)  // no comment
                u16(0)  // disk number
                u16(0)  // internal attributes
                u32(UInt32(0o100644) << 16)  // external attributes: a regular file, rw-r--r--
                u32(UInt32(localHeader))
            }
            path.withUTF8 { append(UnsafeRawBufferPointer($0)) }
        }
    }
}
