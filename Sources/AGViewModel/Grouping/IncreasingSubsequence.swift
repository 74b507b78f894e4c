/// Marks a longest strictly increasing subsequence of `values`, in
/// O(n log n) (patience sorting).
///
/// A change set keeps the items (or sections) on this subsequence in place
/// and reports only the others as moves, so the number of moves is minimal.
internal func longestIncreasingSubsequenceMask(_ values: [Int]) -> [Bool] {
    let n = values.count
    var mask = [Bool](repeating: false, count: n)
    guard n > 0 else { return mask }
    // tails[k]: position of the smallest tail of an increasing run of length k+1.
    var tails: [Int] = []
    tails.reserveCapacity(n)
    var previous = [Int](repeating: -1, count: n)
    for i in 0..<n {
        let v = values[i]
        var lo = 0, hi = tails.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if values[tails[mid]] < v { lo = mid + 1 } else { hi = mid }
        }
        if lo > 0 { previous[i] = tails[lo - 1] }
        if lo == tails.count { tails.append(i) } else { tails[lo] = i }
    }
    var i = tails[tails.count - 1]
    while i >= 0 {
        mask[i] = true
        i = previous[i]
    }
    return mask
}
