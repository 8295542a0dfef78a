# Conversions between primitive types, automatic and explicit.
output "explicit" {
  value = {
    to_string = tostring(12.5)
    to_number = tonumber("0012")
    to_bool   = tobool("true")
    bool_str  = tostring(false)
  }
}

output "automatic" {
  value = {
    concat_num  = "n=${5 + 0.25}"
    number_eq   = 5 == "5"
    string_math = "3" + 4
    join_nums   = join(",", [1, 2.5, 100])
  }
}

output "refused" {
  value = [can(tonumber("abc")), can(tobool("yes")), can(tostring([1]))]
}

output "big_and_small" {
  value = [1e3, 0.1 + 0.2, 2 / 3, 12345678901234, -0.0]
}

output "parse" {
  value = [parseint("ff", 16), parseint("-101", 2), floor(-1.5), ceil(1.2)]
}
