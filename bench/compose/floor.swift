// The floor for bench/compose: a trivial Swift program that only reads the files compose
// reads (the Stagefile and the templates it uses) and prints their total size.
import Foundation

var total = 0
for path in CommandLine.arguments.dropFirst() {
    total += FileManager.default.contents(atPath: path)?.count ?? 0
}
print(total)
