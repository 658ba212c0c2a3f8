import Foundation
import PassModel
import Testing
import TesseraTestSupport

/// A pass's own images are read whole before they are signed into it: a header that is right is not enough when the
/// image data is missing, cut short or damaged, since the holder's device could not draw it.
@Suite("Images of a pass's own: the whole PNG is checked")
struct PNGWholeCheckTests {
    /// The file's chunks: type and body.
    static func chunks(_ data: Data) -> [(type: String, body: [UInt8])] {
        let bytes = [UInt8](data)
        var offset = 8
        var found: [(String, [UInt8])] = []
        while offset + 12 <= bytes.count {
            let length = Int(bytes[offset..<offset + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            found.append((String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self), Array(bytes[offset + 8..<offset + 8 + length])))
            offset += 12 + length
        }
        return found
    }

    /// A PNG made of these chunks, each with its right checksum.
    static func png(_ chunks: [(type: String, body: [UInt8])]) -> Data {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        for (type, body) in chunks {
            let typed = Array(type.utf8) + body
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in typed {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
            }
            crc ^= 0xFFFF_FFFF
            bytes += bigEndian(UInt32(body.count)) + typed + bigEndian(crc)
        }
        return Data(bytes)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func refusal(_ data: Data) -> String? {
        do {
            try PNGInfo.checkWhole(data)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test("whole images pass, made here and by Pillow (palette, grey at 16 bits, RGB, RGBA, compressed)")
    func wholeImages() async throws {
        #expect(Self.refusal(TestPNG.make(width: 90, height: 90)) == nil)
        let folder = try TemporaryDirectory.make(prefix: "png-whole")
        let made = try await Subprocess.run("/usr/bin/env", ["python3", "-c", """
            import sys
            from PIL import Image
            folder = sys.argv[1]
            Image.new("P", (33, 17), 3).save(folder + "/palette.png", bits=4)
            Image.new("I;16", (40, 9), 1000).save(folder + "/grey16.png")
            Image.effect_noise((180, 220), 40).convert("RGB").save(folder + "/rgb.png", optimize=True)
            Image.effect_noise((375, 123), 60).convert("RGBA").save(folder + "/rgba.png", compress_level=9)
            """, folder.path])
        try #require(made.status == 0, "\(made.stderr)")
        for name in ["palette", "grey16", "rgb", "rgba"] {
            let data = try Data(contentsOf: folder.appendingPathComponent("\(name).png"))
            #expect(Self.refusal(data) == nil, "\(name): \(Self.refusal(data) ?? "")")
        }
    }

    @Test("a header alone, a file cut short, damaged or short image data, and a huge size are refused, saying why")
    func refused() {
        let whole = TestPNG.make(width: 90, height: 90)
        let parts = Self.chunks(whole)
        let header = parts.filter { $0.type != "IDAT" }
        #expect(Self.refusal(Self.png(header))?.contains("no image data") == true)
        #expect(Self.refusal(whole.prefix(whole.count - 20))?.contains("truncated") == true)
        #expect(Self.refusal(Self.png(parts.filter { $0.type != "IEND" }))?.contains("no IEND") == true)
        // The image data damaged (its checksum made right): the zlib stream's own check fails.
        let damaged = parts.map { part -> (type: String, body: [UInt8]) in
            guard part.type == "IDAT" else { return part }
            var body = part.body
            body[body.count / 2] ^= 0xFF
            return (part.type, body)
        }
        #expect(Self.refusal(Self.png(damaged))?.contains("damaged or does not hold") == true)
        // The header says more rows than the data holds.
        let taller = parts.map { part -> (type: String, body: [UInt8]) in
            guard part.type == "IHDR" else { return part }
            return (part.type, Self.bigEndian(90) + Self.bigEndian(91) + Array(part.body[8...]))
        }
        #expect(Self.refusal(Self.png(taller))?.contains("90×91") == true)
        // A checksum that does not match its chunk.
        var flipped = [UInt8](whole)
        flipped[flipped.count - 20] ^= 0x01
        #expect(Self.refusal(Data(flipped))?.contains("checksum") == true)
        // More pixels than any image Wallet shows: refused before any inflating.
        let huge = parts.map { part -> (type: String, body: [UInt8]) in
            part.type == "IHDR" ? (part.type, Self.bigEndian(5000) + Self.bigEndian(5000) + Array(part.body[8...])) : part
        }
        #expect(Self.refusal(Self.png(huge))?.contains("more than any image Wallet shows") == true)
        // Methods PNG does not define, in the header (its checksum made right): compression, filter, interlace.
        for (offset, what) in [(10, "compression method 5"), (11, "filter method 5"), (12, "interlace method 5")] {
            let odd = parts.map { part -> (type: String, body: [UInt8]) in
                guard part.type == "IHDR" else { return part }
                var body = part.body
                body[offset] = 5
                return (part.type, body)
            }
            #expect(Self.refusal(Self.png(odd))?.contains("PNG \(what) is not one PNG defines") == true, "\(what)")
        }
        // A palette image (colour type 3) without its palette.
        let noPalette = parts.map { part -> (type: String, body: [UInt8]) in
            guard part.type == "IHDR" else { return part }
            var body = part.body
            (body[8], body[9]) = (8, 3)
            return (part.type, body)
        }
        #expect(Self.refusal(Self.png(noPalette))?.contains("no palette") == true)
    }
}
