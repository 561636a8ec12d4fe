#include "core/net/address_class.h"

namespace toold::core {
namespace {

bool isPrivateV4(const boost::asio::ip::address_v4& address) {
  const auto bytes = address.to_bytes();
  const unsigned a = bytes[0];
  const unsigned b = bytes[1];
  return a == 0                                 // "this network", incl. 0.0.0.0
         || a == 10                             // RFC 1918
         || a == 127                            // loopback
         || (a == 100 && (b & 0xC0) == 64)      // carrier-grade NAT, 100.64.0.0/10
         || (a == 169 && b == 254)              // link-local (cloud metadata lives here)
         || (a == 172 && (b & 0xF0) == 16)      // RFC 1918
         || (a == 192 && b == 168)              // RFC 1918
         || a >= 224;                           // multicast and reserved
}

} // namespace

bool isPrivateOrLoopback(const boost::asio::ip::address& address) {
  if (address.is_v4()) return isPrivateV4(address.to_v4());
  const auto v6 = address.to_v6();
  if (v6.is_v4_mapped()) return isPrivateV4(boost::asio::ip::make_address_v4(boost::asio::ip::v4_mapped, v6));
  const auto bytes = v6.to_bytes();
  // ::a.b.c.d (IPv4-compatible, deprecated but still routed by some stacks to the IPv4 address).
  bool compatible = true;
  for (int i = 0; i < 12; ++i) compatible = compatible && bytes[i] == 0;
  if (compatible) {
    return isPrivateV4(boost::asio::ip::address_v4({bytes[12], bytes[13], bytes[14], bytes[15]}));
  }
  return v6.is_loopback() || v6.is_unspecified() || v6.is_link_local() || v6.is_site_local() || v6.is_multicast() ||
         (bytes[0] & 0xFE) == 0xFC; // unique local, fc00::/7
}

std::optional<std::string> refusePrivateAddress(const boost::asio::ip::address& address) {
  if (!isPrivateOrLoopback(address)) return std::nullopt;
  // The fact only: the caller says which setting allows it, so the reason is given once.
  return address.to_string() + " is a loopback or private address";
}

} // namespace toold::core
