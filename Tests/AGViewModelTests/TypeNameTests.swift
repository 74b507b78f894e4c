import Testing
@testable import AGViewModel

/// Stand-ins for two screens that each nest a cell class of the same name.
enum SettingsScreen { final class DetailCell {} }
enum ProfileScreen { final class DetailCell {} }
final class PlainCell {}
final class GenericCell<Element> {}
private final class HiddenCell {}

/// The reuse identifiers of the UIKit helpers come from these names.
@Suite("Type names for reuse identifiers")
struct TypeNameTests {
    /// Nested classes of one name get distinct names; top-level ones keep
    /// the plain class name (what a storyboard's identifier says).
    @Test func nestedClassesAreQualifiedByTheirEnclosingTypes() {
        #expect(TypeName.qualified(PlainCell.self) == "PlainCell")
        #expect(TypeName.qualified(SettingsScreen.DetailCell.self) == "SettingsScreen.DetailCell")
        #expect(TypeName.qualified(ProfileScreen.DetailCell.self) == "ProfileScreen.DetailCell")
        #expect(TypeName.qualified(GenericCell<Int>.self) == "GenericCell<Swift.Int>")
    }

    /// Classes in anonymous contexts have no stable qualified name: their
    /// plain one is used.
    @Test func localAndPrivateClassesUseTheirPlainName() {
        final class LocalCell {}
        #expect(TypeName.qualified(LocalCell.self) == "LocalCell")
        #expect(TypeName.qualified(HiddenCell.self) == "HiddenCell")
    }
}
