/// `n` and a noun in the tool's messages: "1 member", "2 members".
func counted(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
