import Testing
@testable import PassStore

/// Events name a device by a hash that analytics counts distinct devices by: its text must not change between
/// releases, or devices counted before an upgrade would be counted again after it.
@Suite("Device hash in events")
struct DeviceHashTests {
    @Test("the first 128 bits of SHA-256 over the label and the identifier, in lowercase hex")
    func knownValue() {
        // Python: hashlib.sha256(b"tessera.device:abc").hexdigest()[:32]
        #expect(WalletEventDraft.deviceHash("abc") == "f9b0720add85f9535eba42bc28dd7f6c")
    }

    @Test("hex of every byte value, two lowercase digits each")
    func hexOfEveryByte() {
        let bytes = (0...255).map(UInt8.init)
        #expect(bytes.lowercaseHex == bytes.map { byte in
            let text = String(byte, radix: 16)
            return text.count == 1 ? "0" + text : text
        }.joined())
        #expect([UInt8]().lowercaseHex == "")
    }
}
