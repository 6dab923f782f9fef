// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 the Sluice authors. Licensed under the Apache License, Version 2.0 (LICENSE).

// libFuzzer target: input bytes decode (through the program generator) into a program, run on
// both implementations; any divergence traps, after printing the shrunk program and both traces.
// Built by scripts/fuzz with -sanitize=fuzzer and -DFUZZING; a plain build replays files given as
// arguments (and with --print shows the program each decodes to).

import DifferentialReference
import DifferentialSluice
import SluicePrograms

#if canImport(Glibc)
import Glibc
#endif

func program(from bytes: [UInt8]) -> Program {
    var rng = ByteRandom(bytes)
    return ProgramGenerator.generate(using: &rng)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 || data == nil ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    let p = program(from: bytes)
    guard
        let divergence = Differential.check(
            p, fast: DifferentialSluice.interpret, reference: DifferentialReference.interpret)
    else { return 0 }
    if divergence.known != nil { return 0 }
    print("DIVERGENCE between Sluice and SluiceReference\n\(divergence.report)")
    fflush(nil)
    fatalError("Sluice and SluiceReference disagree (shrunk program above)")
}

#if FUZZING
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv, { data, size in fuzzOneInput(data, size) }))
#else
// Plain build: replay the files given as arguments (no libFuzzer linked).
var printOnly = false
for path in CommandLine.arguments.dropFirst() {
    if path == "--print" {
        printOnly = true
        continue
    }
    guard let file = fopen(path, "rb") else { fatalError("cannot open \(path)") }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&buffer, 1, buffer.count, file)
        if n <= 0 { break }
        bytes += buffer[0..<n]
    }
    fclose(file)
    if printOnly {
        print("// \(path)\n\(program(from: bytes).swift)\n")
    } else {
        _ = bytes.withUnsafeBufferPointer { fuzzOneInput($0.baseAddress, $0.count) }
        print("\(path): agree")
    }
}
#endif
