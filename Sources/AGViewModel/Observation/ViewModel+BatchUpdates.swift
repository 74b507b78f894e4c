extension ViewModel {
    /// Makes several changes as one: observers hear about them once, after
    /// `updates` returns.
    ///
    /// ```swift
    /// viewModel.performBatchUpdates {
    ///     viewModel["title"] = "Draft"
    ///     viewModel["title"] = "Final"    // observers get one change: old -> "Final"
    ///     viewModel["likes"] = 3
    ///     viewModel["likes"] = nil         // was absent: restored, nothing delivered
    /// }
    /// ```
    ///
    /// - Each key set in the batch delivers at most one change, with its value
    ///   before the batch as `oldValue` and its last value as `newValue`, in the
    ///   order the keys were first set. A key set and then restored to a value
    ///   that `isSame` as its old one delivers nothing (except to
    ///   `.includeEqualValues` observations). `.prior` notifications come right
    ///   before their change, when the new value is already stored.
    /// - Values are stored at once: reads inside the batch see them.
    /// - Batches nest: only the outermost one delivers.
    /// - The batch belongs to this ViewModel: changes its own callbacks make
    ///   to it meanwhile join it. Changes to other ViewModels are not batched.
    /// - Commands depending on a key are marked at each set, as outside a
    ///   batch: `executeCommandIfNeeded` inside the batch sees the values set
    ///   before it.
    /// - Swift Observation (`withObservationTracking`, SwiftUI) is told at
    ///   each set, as it coalesces changes on its own.
    /// - If `updates` throws, the changes it made are still delivered.
    ///
    /// The name follows UIKit's `performBatchUpdates(_:completion:)`, which
    /// iOS developers already pair with "many changes, one update".
    ///
    /// - Parameter updates: The changes to make.
    /// - Returns: What `updates` returns.
    @discardableResult
    public func performBatchUpdates<Result, Failure: Error>(
        _ updates: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let center = observationCenterAllocated()
        center.beginBatch()
        defer { center.endBatch(in: self) }
        return try updates()
    }
}
