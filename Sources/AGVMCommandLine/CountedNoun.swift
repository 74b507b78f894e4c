/// `n` and a noun in the tool's messages: "1 member", "2 members",
/// "10,001 elements".
func counted(_ n: Int, _ noun: String) -> String { "\(grouped(n)) \(noun)\(n == 1 ? "" : "s")" }

/// `n` with its thousands set apart, as the tool writes counts: `10001` →
/// `10,001`.
func grouped(_ number: Int) -> String {
    let digits = String(number.magnitude)
    var out = ""
    for (i, ch) in digits.enumerated() {
        if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
        out.append(ch)
    }
    return (number < 0 ? "-" : "") + out
}
