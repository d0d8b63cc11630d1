import Foundation

#if FUZZING
import CLibFuzzer
#endif

/// The target a fuzzing process runs, from `STAGEBUILD_FUZZ_TARGET` (libFuzzer owns the
/// command line). Read once: libFuzzer calls the entry point millions of times.
private let fuzzedTarget: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["STAGEBUILD_FUZZ_TARGET"] ?? ""
    guard let target = FuzzTarget.named(name) else {
        let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
        fatalError("set STAGEBUILD_FUZZ_TARGET to one of: \(names)")
    }
    return target
}()

/// libFuzzer's entry point (`LLVMFuzzerTestOneInput`, llvm.org/docs/LibFuzzer.html): one input,
/// as bytes; the return value must be 0.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    fuzzedTarget.check(bytes)
    return 0
}

#if FUZZING
/// The fuzz build's `main`. SwiftPM links an executable target with its `main` taken from
/// `<module>_main` (the module's renamed entry point), so libFuzzer's own `main` cannot be
/// used; this one hands the command line to libFuzzer's driver.
@_cdecl("stagebuild_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, fuzzOneInput)
}
#endif
