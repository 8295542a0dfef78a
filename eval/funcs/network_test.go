package funcs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestNetworkFunctions(t *testing.T) {
	runFamily(t, Functions(Options{}), map[string][]callTest{
		"cidrhost": {
			{args: []cty.Value{str("10.12.112.0/20"), num(16)}, want: str("10.12.112.16")},
			{args: []cty.Value{str("10.12.112.0/20"), num(268)}, want: str("10.12.113.12")},
			{args: []cty.Value{str("10.12.112.0/20"), num(-1)}, want: str("10.12.127.255")},
			{args: []cty.Value{str("10.1.2.3/24"), num(5)}, want: str("10.1.2.5")},
			{args: []cty.Value{str("fd00:fd12:3456:7890:00a2::/72"), num(34)}, want: str("fd00:fd12:3456:7890::22")},
			{args: []cty.Value{str("10.0.0.0/30"), num(4)}, err: "10.0.0.0/30 has 4 addresses, so host numbers run from 0 to 3 (or -1 to -4 from the end); 4 is out of range"},
			{args: []cty.Value{str("10.0.0.0/30"), num(-5)}, err: "-5 is out of range"},
			{args: []cty.Value{str("10.0.0.0/30"), numf(1.5)}, err: "must be a whole number"},
			{args: []cty.Value{str("10.0.0/8"), num(1)}, err: `"10.0.0/8" is not a CIDR prefix; write an address and a prefix length, like 10.0.0.0/16 or fd00::/8`},
			// Leading zeros are decimal, as in Terraform.
			{args: []cty.Value{str("010.001.000.000/016"), num(5)}, want: str("10.1.0.5")},
			{args: []cty.Value{str("10.0.0.0/0008"), num(257)}, want: str("10.0.1.1")},
			{args: []cty.Value{str("::ffff:010.0.0.0/120"), num(3)}, want: str("::ffff:10.0.0.3")},
			{args: []cty.Value{str("0.0.0.0/00"), num(1)}, want: str("0.0.0.1")},
			{args: []cty.Value{str("10.0.0.0/"), num(1)}, err: "is not a CIDR prefix"},
			{args: []cty.Value{str("10.0.0.0"), num(1)}, err: "is not a CIDR prefix"},
			{args: []cty.Value{str("10.0.0.0/+8"), num(1)}, err: "is not a CIDR prefix"},
			{args: []cty.Value{str("0256.0.0.0/8"), num(1)}, err: "is not a CIDR prefix"},
			{args: []cty.Value{str("ﬄ"), num(1)}, err: "is not a CIDR prefix"},
			{args: []cty.Value{secret(str("10.0.0.0/8")), num(1)}, want: secret(str("10.0.0.1"))},
			{args: []cty.Value{secret(str("nope")), num(1)}, err: "the details are hidden because it is secret"},
		},
		"cidrnetmask": {
			{args: []cty.Value{str("172.16.0.0/12")}, want: str("255.240.0.0")},
			{args: []cty.Value{str("0.0.0.0/0")}, want: str("0.0.0.0")},
			{args: []cty.Value{str("10.0.0.1/32")}, want: str("255.255.255.255")},
			{args: []cty.Value{str("fd00::/8")}, err: "fd00::/8 is an IPv6 prefix; only IPv4 prefixes have a netmask"},
		},
		"cidrsubnet": {
			{args: []cty.Value{str("172.16.0.0/12"), num(4), num(2)}, want: str("172.18.0.0/16")},
			{args: []cty.Value{str("010.0.0.0/8"), num(8), num(3)}, want: str("10.3.0.0/16")},
			{args: []cty.Value{str("10.1.2.0/24"), num(4), num(15)}, want: str("10.1.2.240/28")},
			{args: []cty.Value{str("10.1.2.0/24"), num(0), num(0)}, want: str("10.1.2.0/24")},
			{args: []cty.Value{str("fd00:fd12:3456:7890::/56"), num(16), num(162)}, want: str("fd00:fd12:3456:7800:a200::/72")},
			{args: []cty.Value{str("::/0"), num(128), num(1)}, want: str("::1/128")},
			{args: []cty.Value{str("10.0.0.0/30"), num(3), num(0)}, err: "cannot extend 10.0.0.0/30 by 3 bits: its addresses have only 32 bits"},
			{args: []cty.Value{str("10.0.0.0/8"), num(2), num(4)}, err: "extending 10.0.0.0/8 by 2 bits makes 4 subnets, numbered 0 to 3; 4 is out of range"},
			{args: []cty.Value{str("10.0.0.0/8"), num(2), num(-1)}, err: "-1 is out of range"},
			{args: []cty.Value{str("10.0.0.0/8"), num(-1), num(0)}, err: "the number of new bits must be at least 0, not -1"},
		},
		"cidrsubnets": {
			{args: []cty.Value{str("10.1.0.0/16"), num(4), num(4), num(8), num(4)}, want: strs("10.1.0.0/20", "10.1.16.0/20", "10.1.32.0/24", "10.1.48.0/20")},
			{args: []cty.Value{str("fd00:fd12:3456:7890::/56"), num(16), num(16), num(16), num(32)}, want: strs("fd00:fd12:3456:7800::/72", "fd00:fd12:3456:7800:100::/72", "fd00:fd12:3456:7800:200::/72", "fd00:fd12:3456:7800:300::/88")},
			{args: []cty.Value{str("10.0.0.0/8")}, want: cty.ListValEmpty(cty.String)},
			{args: []cty.Value{str("10.0.0.0/8"), num(0)}, err: "the number of new bits must be at least 1, not 0"},
			{args: []cty.Value{str("10.0.0.0/30"), num(1), num(1), num(1)}, err: "10.0.0.0/30 has no room left for a /31 subnet after the ones before it"},
			{args: []cty.Value{str("10.0.0.0/8"), num(4), cty.UnknownVal(cty.Number)}, want: cty.UnknownVal(cty.List(cty.String)).RefineNotNull()},
		},
		"cidrcontains": {
			{args: []cty.Value{str("192.168.2.0/20"), str("192.168.2.1")}, want: cty.True},
			{args: []cty.Value{str("192.168.2.0/24"), str("192.168.3.1")}, want: cty.False},
			{args: []cty.Value{str("10.0.0.0/8"), str("10.1.0.0/16")}, want: cty.True},
			{args: []cty.Value{str("10.1.0.0/16"), str("10.0.0.0/8")}, want: cty.False},
			{args: []cty.Value{str("fd00:a:b:c::/64"), str("fd00:a:b:c:d::1")}, want: cty.True},
			{args: []cty.Value{str("10.0.0.0/8"), str("fd00::1")}, err: "10.0.0.0/8 and fd00::1 are of different address families (IPv4 and IPv6)"},
			{args: []cty.Value{str("010.0.0.0/8"), str("010.001.002.003")}, want: cty.True},
			{args: []cty.Value{str("10.0.0.0/8"), str("011.1.0.0/16")}, want: cty.False},
			{args: []cty.Value{str("10.0.0.0/8"), str("👍🏽")}, err: `"👍🏽" is neither an IP address nor a CIDR prefix`},
		},
	})
}
