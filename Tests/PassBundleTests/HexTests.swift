import Foundation
import PassCrypto
import Testing

@Suite("Hexadecimal encoding")
struct HexTests {
    @Test func encodesTwoDigitsPerByteInEitherCase() {
        let bytes: [UInt8] = [0x00, 0x0f, 0xa0, 0xff, 0x5c]
        #expect(Hex.encode(bytes) == "000fa0ff5c")
        #expect(Hex.encode(bytes, uppercase: true) == "000FA0FF5C")
        #expect(Hex.encode(Data(bytes)) == "000fa0ff5c")
        #expect(Hex.encode([UInt8]()) == "")
        // The manifest's SHA-1 of "abc" (FIPS 180 test vector).
        #expect(Hex.encode(Digest.sha1(Data("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
    }

    @Test func decodesEvenLengthDigitsInEitherCase() {
        #expect(Hex.decode("000fA0Ff5c") == Data([0x00, 0x0f, 0xa0, 0xff, 0x5c]))
        #expect(Hex.decode("") == Data())
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("0g") == nil)
        #expect(Hex.decode("0x00") == nil)
    }
}
