import Foundation
import Testing
@testable import AGViewModel

/// A fake cell: its height is 20 points per started 100 points of title
/// text width at 10 points per character, so it depends on both the data
/// and the available width.
@MainActor
final class FakeCell: ViewModelBindable {
    var applied: [String] = []
    var sizeComputations = 0

    func apply(_ viewModel: ViewModel) {
        applied.append(viewModel[.bookTitle] ?? "")
    }

    func size(for viewModel: ViewModel, in context: LayoutContext) -> CGSize? {
        sizeComputations += 1
        let textWidth = CGFloat((viewModel[.bookTitle] ?? "").count * 10)
        let lines = max(1, Int((textWidth / context.availableWidth).rounded(.up)))
        return CGSize(width: context.availableWidth, height: CGFloat(lines * 20))
    }
}

/// A self-sizing view: applies, never computes a size.
@MainActor
final class SelfSizingCell: ViewModelBindable {
    var applied = 0
    func apply(_ viewModel: ViewModel) { applied += 1 }
}

/// A view that computes a size while `givesSize`, and then self-sizes.
@MainActor
final class SwitchableCell: ViewModelBindable {
    var givesSize = true
    func apply(_ viewModel: ViewModel) {}
    func size(for viewModel: ViewModel, in context: LayoutContext) -> CGSize? {
        givesSize ? FakeCell().size(for: viewModel, in: context) : nil
    }
}

@Suite("ViewModel binding, size cache and refresh") @MainActor
struct ViewModelBindingTests {
    let portrait = LayoutContext(availableWidth: 100)
    let landscape = LayoutContext(availableWidth: 300)

    @Test func sizeIsCachedUntilFlaggedOrContextChanges() {
        let vm = ViewModel(["title": "twenty characters..."])   // 20 chars → 200 pt of text
        let cell = FakeCell()
        vm.bindingView = cell
        #expect(vm.needsCachedSize)
        #expect(vm.sizeOfBindingView(in: portrait) == CGSize(width: 100, height: 40))
        #expect(vm.sizeOfBindingView(in: portrait) == CGSize(width: 100, height: 40))
        #expect(cell.sizeComputations == 1)
        #expect(!vm.needsCachedSize)

        // Rotation: a new width never returns the stale height.
        #expect(vm.sizeOfBindingView(in: landscape) == CGSize(width: 300, height: 20))
        #expect(cell.sizeComputations == 2)
        #expect(vm.sizeOfBindingView(in: landscape)?.height == 20)
        #expect(cell.sizeComputations == 2)

        // New text size: another context too.
        let large = LayoutContext(availableWidth: 300, contentSizeCategory: "XXL")
        _ = vm.sizeOfBindingView(in: large)
        #expect(cell.sizeComputations == 3)

        // Data changes: flagged, recomputed once.
        vm[.bookTitle] = String(repeating: "x", count: 70)
        vm.setNeedsCachedSize()
        vm.setNeedsCachedSize()
        #expect(vm.needsCachedSize)
        #expect(vm.cachedSize(in: large) == nil)
        #expect(vm.sizeOfBindingView(in: large)?.height == 60)
        #expect(vm.sizeOfBindingView(in: large)?.height == 60)
        #expect(cell.sizeComputations == 4)
    }

    @Test func sizeWithoutBindingViewUsesAGivenViewOnDemand() {
        let vm = ViewModel(["title": "abc"])
        #expect(vm.sizeOfBindingView(in: portrait) == nil)
        let prototype = FakeCell()
        #expect(vm.size(using: prototype, in: portrait)?.height == 20)
        #expect(vm.size(using: prototype, in: portrait)?.height == 20)
        #expect(prototype.sizeComputations == 1)
        // The cached size now answers without any view.
        #expect(vm.sizeOfBindingView(in: portrait)?.height == 20)
        #expect(vm.cachedSize(in: portrait)?.height == 20)
        #expect(vm.sizeOfBindingView(in: landscape) == nil)      // not for another width
        vm.setNeedsCachedSize()
        #expect(vm.sizeOfBindingView(in: portrait) == nil)       // never stale
    }

    /// A stale size is never returned: when the view, asked again after
    /// ``setNeedsCachedSize()``, gives no size, the old size is dropped.
    @Test func aViewThatStopsGivingASizeDropsTheCachedOne() {
        let vm = ViewModel(["title": "twenty characters..."])
        let cell = SwitchableCell()
        vm.bind(cell)
        #expect(vm.sizeOfBindingView(in: portrait) == CGSize(width: 100, height: 40))
        cell.givesSize = false
        vm.setNeedsCachedSize()
        #expect(vm.sizeOfBindingView(in: portrait) == nil)
        #expect(vm.cachedSize(in: portrait) == nil)
        #expect(vm.needsCachedSize)
        cell.givesSize = true
        #expect(vm.sizeOfBindingView(in: portrait) == CGSize(width: 100, height: 40))
    }

    @Test func selfSizingViewsGiveNoSize() {
        let vm = ViewModel()
        let cell = SelfSizingCell()
        vm.bind(cell)
        #expect(vm.sizeOfBindingView(in: portrait) == nil)
        #expect(vm.needsCachedSize)
    }

    @Test func severalMarksGiveOneRefresh() {
        let vm = ViewModel(["title": "A"])
        let cell = FakeCell()
        vm.bind(cell)
        #expect(cell.applied == ["A"])
        #expect(!vm.needsRefresh)
        vm.refreshIfNeeded()
        #expect(cell.applied.count == 1)                 // not marked: nothing

        vm.setNeedsRefresh()
        vm.setNeedsRefresh()
        vm.update { $0[.bookTitle] = "B" }
        vm.update { $0[.bookTitle] = "C" }
        #expect(vm.needsRefresh)
        #expect(cell.applied.count == 1)                 // marks do not refresh
        vm.refreshIfNeeded()
        vm.refreshIfNeeded()
        #expect(cell.applied == ["A", "C"])
        #expect(!vm.needsRefresh)
    }

    @Test func refreshAndSizeFlagsChain() {
        let cell = FakeCell()
        let vm = ViewModel(["title": "A"])
            .bind(cell)
            .update { $0[.bookTitle] = "B" }
            .setNeedsCachedSize()
            .setNeedsRefresh()
        #expect(vm.needsRefresh && vm.needsCachedSize && cell.applied == ["A"])
        #expect(vm.refreshIfNeeded() === vm && cell.applied == ["A", "B"])
        #expect(vm.refresh().updateAndRefresh { $0[.bookTitle] = "C" } === vm)
        #expect(cell.applied == ["A", "B", "B", "C"] && !vm.needsRefresh)
    }

    @Test func refreshNowAndUpdateThenRefresh() {
        let vm = ViewModel(["title": "A"])
        let cell = FakeCell()
        vm.bindingView = cell                             // setting does not apply
        #expect(cell.applied.isEmpty)
        vm.refresh()
        #expect(cell.applied == ["A"])
        _ = vm.sizeOfBindingView(in: portrait)
        vm.updateAndRefresh { $0[.bookTitle] = String(repeating: "y", count: 25) }
        #expect(cell.applied.last == String(repeating: "y", count: 25))
        #expect(vm.needsCachedSize)                      // an update makes the size stale
        #expect(vm.sizeOfBindingView(in: portrait)?.height == 60)
        #expect(cell.sizeComputations == 2)
    }

    /// An update that changes the data and then throws leaves the size
    /// and the view marked stale, so neither shows the old data.
    @Test func anUpdateThatThrowsAfterAChangeMarksTheSizeAndTheViewStale() {
        struct Failure: Error {}
        for refreshing in [false, true] {
            let vm = ViewModel(["title": "A"])
            let cell = FakeCell()
            vm.bindingView = cell
            vm.refresh()
            #expect(vm.sizeOfBindingView(in: portrait)?.height == 20)
            #expect(!vm.needsCachedSize && !vm.needsRefresh)
            let change = { (vm: ViewModel) throws in
                vm[.bookTitle] = String(repeating: "z", count: 25)
                throw Failure()
            }
            #expect(throws: Failure.self) {
                if refreshing { try vm.updateAndRefresh(change) } else { try vm.update(change) }
            }
            #expect(vm.needsCachedSize, "refreshing: \(refreshing)")
            #expect(vm.needsRefresh, "refreshing: \(refreshing)")
            #expect(vm.sizeOfBindingView(in: portrait)?.height == 60)
            vm.refreshIfNeeded()
            #expect(cell.applied.last == String(repeating: "z", count: 25))
        }
    }

    @Test func bindingViewIsWeakAndNeverStaleAfterReuse() {
        let first = ViewModel(["title": "first"])
        let second = ViewModel(["title": "second"])
        let cell = FakeCell()
        first.bind(cell)
        second.bind(cell)                                 // the cell is reused
        #expect(first.bindingView == nil)
        #expect(second.bindingView === cell)
        first.refresh()                                   // must not overwrite the reused cell
        #expect(cell.applied == ["first", "second"])
        second.unbind()
        #expect(second.bindingView == nil)

        weak var watcher: FakeCell?
        do {
            let temporary = FakeCell()
            watcher = temporary
            first.bind(temporary)
        }
        #expect(watcher == nil)
        #expect(first.bindingView == nil)
        first.refresh()                                   // no view: harmless
    }

    /// The table helpers' dequeue without a ViewModel: the reused cell,
    /// filled by hand, is no longer the old ViewModel's binding view.
    @Test func aReusedViewDequeuedWithoutViewModelIsUnbound() {
        let old = ViewModel(["title": "old"])
        let cell = FakeCell()
        ViewBindings.rebind(cell, to: old)                // dequeue(_:for:bindingTo: old)
        #expect(old.bindingView === cell)
        ViewBindings.rebind(cell, to: nil)                // reused, dequeued without one
        #expect(old.bindingView == nil)
        old.refresh()
        #expect(cell.applied == ["old"])
        // Unbinding a view bound to nothing leaves other bindings alone.
        let other = ViewModel(["title": "other"])
        other.bind(cell)
        ViewBindings.detach(view: FakeCell())
        #expect(other.bindingView === cell)
    }

    /// A view reused by hand (outside the table helpers) knows what it
    /// shows and unbinds itself, so the old row's refresh leaves it alone.
    @Test func aViewUnbindsItselfAndKnowsWhatItShows() {
        final class PooledCell: ViewModelBindable {
            var applied: [String] = []
            var unbound: [String] = []
            func apply(_ viewModel: ViewModel) { applied.append(viewModel.string(at: "title", default: "")) }
            func didUnbind(from viewModel: ViewModel) { unbound.append(viewModel.string(at: "title", default: "")) }
        }
        let row = ViewModel(["title": "row"])
        let cell = PooledCell(), other = PooledCell()
        #expect(cell.boundViewModel == nil)
        row.bind(cell)
        #expect(cell.boundViewModel === row)
        cell.unbindFromViewModel()
        #expect(cell.boundViewModel == nil && row.bindingView == nil)
        #expect(cell.unbound == ["row"])
        row.refresh()
        #expect(cell.applied == ["row"])
        cell.unbindFromViewModel()                        // bound to nothing: nothing to tell
        #expect(cell.unbound == ["row"])

        // A view the ViewModel has since handed to another view is no
        // longer bound, and unbinding it leaves the other binding alone.
        row.bind(cell)
        row.bind(other)
        #expect(cell.boundViewModel == nil && other.boundViewModel === row)
        cell.unbindFromViewModel()
        #expect(row.bindingView === other && other.unbound.isEmpty)
    }

    /// A view hears each time it stops showing a ViewModel, however the
    /// binding ends, and a cell that observes what it shows stops there.
    @Test func aViewIsToldWhenItNoLongerShowsAViewModel() {
        final class ObservingCell: ViewModelBindable {
            var unbound: [String] = []
            var titles: [String] = []
            func apply(_ viewModel: ViewModel) {
                viewModel.addObserver(self, forKeys: ["title"]) { cell, book, _, _ in
                    cell.titles.append(book.string(at: "title", default: ""))
                }
            }
            func didUnbind(from viewModel: ViewModel) {
                unbound.append(viewModel.string(at: "title", default: ""))
                viewModel.removeObserver(self)
            }
        }
        let a = ViewModel(["title": "a"]), b = ViewModel(["title": "b"])
        let cell = ObservingCell(), other = ObservingCell()
        a.bind(cell)
        a.bind(cell)                                      // the same binding: nothing ends
        b.bind(cell)                                      // reused for another row
        #expect(cell.unbound == ["a"])
        a["title"] = "a2"
        #expect(cell.titles.isEmpty)
        ViewBindings.rebind(cell, to: nil)                // dequeued without a ViewModel
        #expect(cell.unbound == ["a", "b"])
        b["title"] = "b2"
        #expect(cell.titles.isEmpty)
        a.bind(cell)
        a.bind(other)                                     // the row shown by another view
        #expect(cell.unbound == ["a", "b", "a2"] && other.unbound.isEmpty)
        a.unbind()
        a.bindingView = nil                               // nothing bound: nothing to tell
        #expect(other.unbound == ["a2"])
        a["title"] = "a3"
        #expect(cell.titles.isEmpty && other.titles.isEmpty)
    }

    /// A view that binds another view from `didUnbind(from:)`: the other
    /// view hears of its old binding before the new one.
    @Test func aViewHearsOfItsOldBindingBeforeANewOne() {
        final class LoggingCell: ViewModelBindable {
            let name: String
            var log: [String]
            var onUnbind: (() -> Void)?
            init(_ name: String, log: [String] = []) { (self.name, self.log) = (name, log) }
            func apply(_ viewModel: ViewModel) { log.append("apply " + viewModel.string(at: "title", default: "")) }
            func didUnbind(from viewModel: ViewModel) {
                log.append("unbind " + viewModel.string(at: "title", default: ""))
                onUnbind?()
            }
        }
        let a = ViewModel(["title": "a"]), b = ViewModel(["title": "b"]), c = ViewModel(["title": "c"])
        let v = LoggingCell("v"), w = LoggingCell("w")
        a.bind(v)
        b.bind(w)
        v.onUnbind = { [unowned w] in
            v.onUnbind = nil
            c.bind(w)
        }
        b.bind(v)                                         // v leaves a, w leaves b
        #expect(w.log == ["apply b", "unbind b", "apply c"])
        #expect(v.log == ["apply a", "unbind a", "apply b"])
        #expect(b.bindingView === v && c.bindingView === w && a.bindingView == nil)
    }

    @Test func manyBindingsArePruned() {
        // Binds many short-lived cells; the registry must keep working.
        let vm = ViewModel(["title": "x"])
        for _ in 0..<500 { vm.bind(FakeCell()) }
        let cell = FakeCell()
        vm.bind(cell)
        #expect(vm.bindingView === cell)
        let other = ViewModel(["title": "y"])
        other.bind(cell)
        #expect(vm.bindingView == nil)
    }
}

/// A view whose measuring changes the data the layout depends on.
@MainActor
final class RestylingCell: ViewModelBindable {
    func apply(_ viewModel: ViewModel) {}
    func size(for viewModel: ViewModel, in context: LayoutContext) -> CGSize? {
        viewModel.setNeedsCachedSize()
        return CGSize(width: context.availableWidth, height: 44)
    }
}

extension ViewModelBindingTests {
    @Test func bindingAppliesAndClearsAPendingRefresh() {
        let vm = ViewModel(["title": "A"]).setNeedsRefresh()
        let cell = FakeCell()
        vm.bind(cell)
        #expect(!vm.needsRefresh)
        vm.refreshIfNeeded()
        #expect(cell.applied == ["A"])
    }

    @Test func settingTheBindingViewOfAReusedViewUnbindsItsOldViewModel() {
        let first = ViewModel(["title": "first"]), second = ViewModel(["title": "second"])
        let cell = FakeCell()
        first.bindingView = cell
        second.bindingView = cell
        #expect(first.bindingView == nil)
        #expect(second.bindingView === cell)
        first.refresh()
        #expect(cell.applied.isEmpty)
    }

    /// A change made while the view measures leaves the new size stale.
    @Test func aChangeWhileMeasuringFlagsTheNewSizeStale() {
        let vm = ViewModel()
        #expect(vm.size(using: RestylingCell(), in: portrait)?.height == 44)
        #expect(vm.needsCachedSize)
        #expect(vm.cachedSize(in: portrait) == nil)
    }
}

/// A view of a fixed height that counts its measurements.
@MainActor
final class FixedHeightCell: ViewModelBindable {
    var sizeComputations = 0
    func apply(_ viewModel: ViewModel) {}
    func size(for viewModel: ViewModel, in context: LayoutContext) -> CGSize? {
        sizeComputations += 1
        return CGSize(width: context.availableWidth, height: 44)
    }
}

extension ViewModelBindingTests {
    /// A ViewModel shown by two kinds of view (a header and a cell, a list
    /// and a grid cell) is measured by each: one's cached size is not the
    /// other's. A bound view of another class measures too.
    @Test func aCachedSizeIsOnlyForTheClassOfViewThatMeasuredIt() {
        let vm = ViewModel(["title": "A title of forty characters, more or less"])
        let fake = FakeCell(), fixed = FixedHeightCell()
        #expect(vm.size(using: fake, in: landscape)?.height == 40)
        #expect(vm.size(using: fixed, in: landscape)?.height == 44)
        #expect(vm.size(using: fixed, in: landscape)?.height == 44)
        #expect(fixed.sizeComputations == 1)
        #expect(vm.size(using: fake, in: landscape)?.height == 40)
        #expect(fake.sizeComputations == 2)
        vm.bind(fixed)
        #expect(vm.sizeOfBindingView(in: landscape)?.height == 44)
    }
}
