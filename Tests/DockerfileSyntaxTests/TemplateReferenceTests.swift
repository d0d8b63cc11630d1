import DockerfileSyntax
import Testing

/// The typed view of a Stagefile's template references: name, alias, and bindings whose values
/// are read as the builder reads a word, each at the place it is written.
@Suite struct TemplateReferenceTests {
    @Test func aBaseReferenceHasItsNameAliasAndBindings() throws {
        let line = "FROM STAGE:base AS app GREETING=\"hello world\" PORT=80 EMPTY="
        let instruction = try TypedInstructionTests.instruction(line + "\n")
        let reference = try #require(try instruction.templateReference())
        #expect(reference.name == "base")
        #expect(reference.alias?.text == "app")
        #expect(reference.bindings.map(\.key) == ["GREETING", "PORT", "EMPTY"])
        #expect(reference.bindings.map(\.value) == ["hello world", "80", ""])
        #expect(reference.bindings.map(\.writtenValue) == ["\"hello world\"", "80", ""])
        // Each value's offset is where its text starts in the line.
        let scalars = Array(instruction.logicalLine.scalars)
        for binding in reference.bindings where !binding.writtenValue.isEmpty {
            let written = Array(binding.writtenValue.unicodeScalars)
            #expect(Array(scalars[binding.valueOffset..<binding.valueOffset + written.count]) == written, "\(binding.key)")
        }
        #expect(try TypedInstructionTests.instruction("RUN true\n").templateReference() == nil)
        #expect(try TypedInstructionTests.instruction("FROM debian AS b\n").templateReference() == nil)
    }

    @Test func aReferenceThatCannotBeReadSaysWhereAndWhy() throws {
        func fault(_ text: String) throws -> TemplateReferenceFault? {
            let instruction = try TypedInstructionTests.instruction(text)
            do throws(TemplateReferenceFault) {
                _ = try instruction.templateReference()
                return nil
            } catch {
                return error
            }
        }
        #expect(try fault("USE\n") == .noName)
        if case .noAlias(let word)? = try fault("FROM stage:base AS\n") { #expect(word.text == "AS") } else { Issue.record() }
        if case .notABinding(let word, let offset)? = try fault("USE app RUN\n") {
            #expect(word.text == "RUN" && offset == 8)
        } else {
            Issue.record()
        }
        // The unterminated quote is where it opens, not where the line ends.
        if case .badValue(let key, _, let offset)? = try fault("USE app A=\"open B=2\n") {
            #expect(key == "A" && offset == 10)
        } else {
            Issue.record()
        }
    }
}
