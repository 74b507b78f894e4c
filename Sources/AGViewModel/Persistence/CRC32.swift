/// CRC-32 (IEEE 802.3, the polynomial of zlib, PNG and ZIP), table-driven.
///
/// The archive checksum. CRC-32 is chosen over a 64-bit hash because it
/// *guarantees* detection of the damage archives actually suffer: every
/// single-bit and single-byte error, every burst up to 32 bits, and every odd
/// number of flipped bits; other damage slips through with probability
/// 2⁻³². It is not a defence against deliberate tampering (no unkeyed
/// checksum is); archives are a cache of the app's own data. The value is
/// the standard one (`"123456789"` → `0xCBF43926`), so any zlib-based tool
/// can verify an archive.
///
/// Uses slicing-by-8 (eight 256-entry tables, eight bytes per step), which
/// runs at several GB/s, so checksumming never dominates archive I/O.
package struct CRC32: Sendable, Hashable {
    /// The checksum of the bytes fed so far.
    package private(set) var value: UInt32 = 0

    /// A checksum of no bytes (`0`).
    package init() {}

    /// The checksum of `bytes`.
    package static func checksum<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }

    /// Feeds `bytes` into the checksum.
    package mutating func update<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        let done: Void? = bytes.withContiguousStorageIfAvailable { update(UnsafeRawBufferPointer($0)) }
        if done == nil {
            let copy = Array(bytes)
            copy.withUnsafeBytes { update($0) }
        }
    }

    /// Feeds raw `bytes` into the checksum.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var crc = ~value
        var i = 0
        let n = bytes.count
        Self.tables.withUnsafeBufferPointer { t in
            // Eight bytes per step: the low word folds into the running CRC,
            // each byte looks up its own table (table k = CRC of a byte
            // followed by k zero bytes).
            while n - i >= 8 {
                let lo = crc ^ (UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8
                    | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24)
                let hi = UInt32(bytes[i + 4]) | UInt32(bytes[i + 5]) << 8
                    | UInt32(bytes[i + 6]) << 16 | UInt32(bytes[i + 7]) << 24
                crc = t[7 &* 256 &+ Int(lo & 0xFF)] ^ t[6 &* 256 &+ Int((lo >> 8) & 0xFF)]
                    ^ t[5 &* 256 &+ Int((lo >> 16) & 0xFF)] ^ t[4 &* 256 &+ Int(lo >> 24)]
                    ^ t[3 &* 256 &+ Int(hi & 0xFF)] ^ t[2 &* 256 &+ Int((hi >> 8) & 0xFF)]
                    ^ t[1 &* 256 &+ Int((hi >> 16) & 0xFF)] ^ t[Int(hi >> 24)]
                i += 8
            }
            while i < n {
                crc = t[Int((crc ^ UInt32(bytes[i])) & 0xFF)] ^ (crc >> 8)
                i += 1
            }
        }
        value = ~crc
    }

    /// The reflected polynomial 0x04C11DB7.
    private static let polynomial: UInt32 = 0xEDB8_8320

    /// Eight tables of 256 entries, flattened: entry `k * 256 + b`.
    private static let tables: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for b in 0..<256 {
            var c = UInt32(b)
            for _ in 0..<8 { c = c & 1 == 1 ? (c >> 1) ^ polynomial : c >> 1 }
            t[b] = c
        }
        for k in 1..<8 {
            for b in 0..<256 {
                let previous = t[(k - 1) * 256 + b]
                t[k * 256 + b] = t[Int(previous & 0xFF)] ^ (previous >> 8)
            }
        }
        return t
    }()
}
