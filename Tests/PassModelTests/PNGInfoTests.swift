import Foundation
import PassModel
import Testing

@Suite("PNGInfo")
struct PNGInfoTests {
    @Test func readsSizeFromIHDR() throws {
        let info = try PNGInfo(data: Fixtures.png(width: 320, height: 100))
        #expect(info.width == 320)
        #expect(info.height == 100)
        #expect(info.bitDepth == 8)
        #expect(info.colorType == 6)
    }

    @Test func rejectsNonPNG() {
        #expect { try PNGInfo(data: Data("GIF89a".utf8)) } throws: { "\($0)".contains("signature") }
    }

    @Test func rejectsTruncatedHeader() {
        #expect { try PNGInfo(data: Fixtures.png(width: 1, height: 1).prefix(20)) } throws: { "\($0)".contains("truncated") }
    }

    @Test func rejectsDamagedHeader() {
        var data = Fixtures.png(width: 10, height: 10)
        data[19] ^= 0xFF  // change the width without fixing the CRC
        #expect { try PNGInfo(data: data) } throws: { "\($0)".contains("checksum") }
    }
}
