import Foundation

/// libFuzzer entry for the JSON parser: any bytes. Invariants in
/// ``FuzzInvariants/checkParser(_:)``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    requireNoProblems(FuzzInvariants.checkParser(UnsafeRawBufferPointer(start: data, count: size)), target: "json-parser")
    return 0
}
