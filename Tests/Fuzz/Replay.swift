// Built with `-D FUZZING -sanitize=fuzzer,address` (scripts/fuzz), libFuzzer supplies `main`
// and calls `LLVMFuzzerTestOneInput`. Built normally, this program replays inputs and runs the
// scaling check, so a crash file or a seed corpus reruns without the sanitizer build.
#if !FUZZING
import Foundation

/// `stagebuild-fuzz TARGET FILE|FOLDER...` and `stagebuild-fuzz TARGET --scaling FOLDER...`.
@main
enum Replay {
    static let usage = """
        usage: stagebuild-fuzz TARGET FILE|FOLDER...             run the target's check on each input
               stagebuild-fuzz TARGET --scaling FILE|FOLDER...   time the parser at 1x, 10x, 100x the seeds
        targets: \(FuzzTarget.all.map(\.name).joined(separator: ", "))

        """

    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard arguments.count >= 2, let target = FuzzTarget.named(arguments[0]) else {
            FileHandle.standardError.write(Data(usage.utf8))
            exit(64)
        }
        do {
            if arguments[1] == "--scaling" {
                exit(try Scaling.run(target, seeds: ReplayInputs.files(in: Array(arguments.dropFirst(2)))) ? 0 : 1)
            }
            let files = try ReplayInputs.files(in: Array(arguments.dropFirst()))
            for file in files {
                target.check(try ReplayInputs.bytes(of: file))
            }
            print("\(target.name): \(files.count) inputs replayed, every invariant held")
        } catch {
            FileHandle.standardError.write(Data("stagebuild-fuzz: \(error)\n".utf8))
            exit(74)
        }
    }
}
#endif
