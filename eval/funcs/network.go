package funcs

import (
	"math/big"
	"net"
	"net/netip"
	"strings"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/gocty"
)

// The CIDR functions work on net/netip prefixes, with addresses as big
// integers for the arithmetic (IPv6 addresses have 128 bits).

// CIDRHostFunc returns the address of a host number within a prefix;
// negative numbers count back from the last address (-1).
var CIDRHostFunc = prefixFunc(function.Spec{
	Description: "Returns the address with the given host number within a CIDR prefix; negative numbers count back from its last address.",
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
		{Name: "hostnum", Type: cty.Number},
	},
	Type: function.StaticReturnType(cty.String),
}, func(p netip.Prefix, args []cty.Value) (cty.Value, error) {
	host, err := bigInt(1, args[1])
	if err != nil {
		return cty.NilVal, err
	}
	size := pow2(p.Addr().BitLen() - p.Bits())
	if host.Sign() < 0 {
		host.Add(host, size)
	}
	if host.Sign() < 0 || host.Cmp(size) >= 0 {
		return cty.NilVal, function.NewArgErrorf(1, "%s has %s addresses, so host numbers run from 0 to %s (or -1 to -%s from the end); %s is out of range",
			p, size, new(big.Int).Sub(size, big.NewInt(1)), size, args[1].AsBigFloat().Text('f', -1))
	}
	return cty.StringVal(addrAt(p, host).String()), nil
})

// CIDRNetmaskFunc returns the netmask of an IPv4 prefix in dotted-decimal
// notation.
var CIDRNetmaskFunc = prefixFunc(function.Spec{
	Description: "Returns the netmask of an IPv4 CIDR prefix in dotted-decimal notation.",
	Params:      []function.Parameter{{Name: "prefix", Type: cty.String}},
	Type:        function.StaticReturnType(cty.String),
}, func(p netip.Prefix, _ []cty.Value) (cty.Value, error) {
	if !p.Addr().Is4() {
		return cty.NilVal, function.NewArgErrorf(0, "%s is an IPv6 prefix; only IPv4 prefixes have a netmask", p)
	}
	return cty.StringVal(net.IP(net.CIDRMask(p.Bits(), 32)).String()), nil
})

// CIDRSubnetFunc returns the subnet numbered netnum among those whose
// prefixes extend a prefix by newbits bits.
var CIDRSubnetFunc = prefixFunc(function.Spec{
	Description: "Returns the subnet with the given number among those whose prefixes extend a CIDR prefix by newbits bits.",
	Params: []function.Parameter{
		{Name: "prefix", Type: cty.String},
		{Name: "newbits", Type: cty.Number},
		{Name: "netnum", Type: cty.Number},
	},
	Type: function.StaticReturnType(cty.String),
}, func(p netip.Prefix, args []cty.Value) (cty.Value, error) {
	bits, err := extension(p, 1, args[1], 0)
	if err != nil {
		return cty.NilVal, err
	}
	num, err := bigInt(2, args[2])
	if err != nil {
		return cty.NilVal, err
	}
	count := pow2(bits - p.Bits())
	if num.Sign() < 0 || num.Cmp(count) >= 0 {
		return cty.NilVal, function.NewArgErrorf(2, "extending %s by %d bits makes %s subnets, numbered 0 to %s; %s is out of range",
			p, bits-p.Bits(), count, new(big.Int).Sub(count, big.NewInt(1)), num)
	}
	offset := new(big.Int).Lsh(num, uint(p.Addr().BitLen()-bits))
	return cty.StringVal(netip.PrefixFrom(addrAt(p, offset), bits).String()), nil
})

// CIDRSubnetsFunc allocates consecutive subnets of a prefix, each extending
// it by the number of bits given in its argument, aligned to its size.
var CIDRSubnetsFunc = prefixFunc(function.Spec{
	Description: "Allocates consecutive subnets of a CIDR prefix, each extending it by the given number of bits.",
	Params:      []function.Parameter{{Name: "prefix", Type: cty.String}},
	VarParam:    &function.Parameter{Name: "newbits", Type: cty.Number},
	Type:        function.StaticReturnType(cty.List(cty.String)),
}, func(p netip.Prefix, args []cty.Value) (cty.Value, error) {
	if len(args) == 1 {
		return cty.ListValEmpty(cty.String), nil
	}
	hostBits := p.Addr().BitLen()
	end := pow2(hostBits - p.Bits())
	next := new(big.Int) // offset of the first free address
	out := make([]cty.Value, 0, len(args)-1)
	for i, arg := range args[1:] {
		bits, err := extension(p, i+1, arg, 1)
		if err != nil {
			return cty.NilVal, err
		}
		size := pow2(hostBits - bits)
		// Align the start to the subnet's size.
		start := new(big.Int).Add(next, new(big.Int).Sub(size, big.NewInt(1)))
		start.Div(start, size).Mul(start, size)
		next = new(big.Int).Add(start, size)
		if next.Cmp(end) > 0 {
			return cty.NilVal, function.NewArgErrorf(i+1, "%s has no room left for a /%d subnet after the ones before it", p, bits)
		}
		out = append(out, cty.StringVal(netip.PrefixFrom(addrAt(p, start), bits).String()))
	}
	return cty.ListVal(out), nil
})

// CIDRContainsFunc reports whether a prefix contains an address or another
// prefix of the same family.
var CIDRContainsFunc = prefixFunc(function.Spec{
	Description: "Reports whether a CIDR prefix contains an IP address or another CIDR prefix.",
	Params: []function.Parameter{
		{Name: "containing_prefix", Type: cty.String},
		{Name: "contained_ip_or_prefix", Type: cty.String},
	},
	Type: function.StaticReturnType(cty.Bool),
}, func(outer netip.Prefix, args []cty.Value) (cty.Value, error) {
	s := args[1].AsString()
	inner, err := parsePrefix(1, args[1])
	if err != nil {
		addr, addrErr := parseAddr(s)
		if addrErr != nil {
			return cty.NilVal, function.NewArgErrorf(1, "%q is neither an IP address nor a CIDR prefix", s)
		}
		inner = netip.PrefixFrom(addr, addr.BitLen())
	}
	if inner.Addr().Is4() != outer.Addr().Is4() {
		return cty.NilVal, function.NewArgErrorf(1, "%s and %s are of different address families (IPv4 and IPv6)", args[0].AsString(), s)
	}
	return cty.BoolVal(inner.Bits() >= outer.Bits() && outer.Contains(inner.Addr())), nil
})

// prefixFunc completes spec, whose first parameter is a CIDR prefix, with
// an implementation that parses the prefix and passes it to impl, and with
// a result that is never null.
func prefixFunc(spec function.Spec, impl func(p netip.Prefix, args []cty.Value) (cty.Value, error)) function.Function {
	spec.RefineResult = refineNotNull
	spec.Impl = func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		p, err := parsePrefix(0, args[0])
		if err != nil {
			return cty.NilVal, err
		}
		return impl(p, args)
	}
	return function.New(&spec)
}

// parsePrefix parses argument i as a CIDR prefix, clearing its host bits.
// As in Terraform, numbers may have leading zeros, which are decimal:
// 010.0.0.0/08 is 10.0.0.0/8.
func parsePrefix(i int, v cty.Value) (netip.Prefix, error) {
	addr, bits, _ := strings.Cut(v.AsString(), "/")
	p, err := netip.ParsePrefix(decimalOctets(addr) + "/" + trimZeros(bits))
	if err != nil {
		return netip.Prefix{}, function.NewArgErrorf(i, "%q is not a CIDR prefix; write an address and a prefix length, like 10.0.0.0/16 or fd00::/8", v.AsString())
	}
	return p.Masked(), nil
}

// parseAddr parses an IP address, whose IPv4 octets may have leading
// zeros, as in Terraform.
func parseAddr(s string) (netip.Addr, error) { return netip.ParseAddr(decimalOctets(s)) }

// decimalOctets removes the leading zeros of the octets of an IPv4
// address, or of the IPv4 address that ends an IPv6 one. Terraform reads
// addresses with the rules of Go's net package before Go 1.17, which took
// such octets as decimal (010 is 10, not 8 as in C's inet_aton).
func decimalOctets(addr string) string {
	head := addr[:strings.LastIndexByte(addr, ':')+1]
	octets := strings.Split(addr[len(head):], ".")
	if len(octets) != 4 {
		return addr
	}
	for i, o := range octets {
		octets[i] = trimZeros(o)
	}
	return head + strings.Join(octets, ".")
}

// trimZeros removes the leading zeros of a decimal number, keeping one
// digit.
func trimZeros(s string) string {
	if t := strings.TrimLeft(s, "0"); t != "" || s == "" {
		return t
	}
	return "0"
}

// extension returns the prefix length of p extended by the bits given in
// argument i, which must be at least least.
func extension(p netip.Prefix, i int, v cty.Value, least int) (int, error) {
	var n int
	if err := gocty.FromCtyValue(v, &n); err != nil {
		return 0, function.NewArgErrorf(i, "the number of new bits must be a whole number")
	}
	if n < least {
		return 0, function.NewArgErrorf(i, "the number of new bits must be at least %d, not %d", least, n)
	}
	if p.Bits()+n > p.Addr().BitLen() {
		return 0, function.NewArgErrorf(i, "cannot extend %s by %d bits: its addresses have only %d bits", p, n, p.Addr().BitLen())
	}
	return p.Bits() + n, nil
}

func bigInt(i int, v cty.Value) (*big.Int, error) {
	var n *big.Int
	if err := gocty.FromCtyValue(v, &n); err != nil {
		return nil, function.NewArgErrorf(i, "must be a whole number")
	}
	return n, nil
}

func pow2(n int) *big.Int { return new(big.Int).Lsh(big.NewInt(1), uint(n)) }

// addrAt returns the address at an offset from the first of p.
func addrAt(p netip.Prefix, offset *big.Int) netip.Addr {
	first := p.Addr().AsSlice()
	n := new(big.Int).Add(new(big.Int).SetBytes(first), offset)
	addr, _ := netip.AddrFromSlice(n.FillBytes(make([]byte, len(first))))
	return addr
}
