import Foundation

/// libFuzzer entry for the declarative packaging spec reader: any bytes as
/// a spec file, and accepted specs applied to a sample document.
/// Invariants in ``FuzzInvariants/checkSpec(_:)``.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSpec(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    requireNoProblems(FuzzInvariants.checkSpec(Data(bytes: data, count: size)), target: "spec")
    return 0
}
