import Testing
@testable import AGViewModel

@Suite("CRC32")
struct CRC32Tests {
    /// Bit-at-a-time reference, to check the sliced tables against.
    static func reference(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0 ..< 8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    @Test func standardCheckValues() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
        #expect(CRC32.checksum(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
    }

    @Test func matchesBitwiseReferenceAtEveryLengthAndAlignment() {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0 ..< 300).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
        for start in 0 ..< 9 {
            for length in stride(from: 0, through: bytes.count - start, by: 7) {
                let slice = Array(bytes[start ..< start + length])
                #expect(CRC32.checksum(slice) == Self.reference(slice))
            }
        }
    }

    @Test func incrementalUpdatesEqualOneShot() {
        let bytes = Array("incremental checksums over several chunks".utf8)
        var crc = CRC32()
        crc.update(bytes[0 ..< 5])
        crc.update(bytes[5 ..< 17])
        crc.update(bytes[17...])
        #expect(crc.value == CRC32.checksum(bytes))
    }

    @Test func everySingleByteChangeIsDetected() {
        let bytes = Array("a short archive payload".utf8)
        let original = CRC32.checksum(bytes)
        for i in bytes.indices {
            for flip: UInt8 in [0x01, 0x80, 0xFF] {
                var damaged = bytes
                damaged[i] ^= flip
                #expect(CRC32.checksum(damaged) != original)
            }
        }
    }
}

extension CRC32Tests {
    /// Sequences without contiguous storage are checksummed like arrays.
    @Test func nonContiguousSequencesGiveTheSameChecksum() {
        let bytes = Array("123456789".utf8)
        #expect(CRC32.checksum(bytes.lazy.map { $0 }) == 0xCBF4_3926)
        var crc = CRC32()
        crc.update(bytes.prefix(4))
        crc.update(AnySequence(bytes.dropFirst(4)))
        #expect(crc.value == 0xCBF4_3926)
    }
}
