#include "core/net/address_class.h"

#include <arpa/inet.h>
#include <cstring>
#include <ifaddrs.h>
#include <netinet/in.h>

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

bool isOwnAddress(const boost::asio::ip::address& address) {
  namespace ip = boost::asio::ip;
  ip::address wanted = address;
  if (address.is_v6() && address.to_v6().is_v4_mapped()) wanted = ip::make_address_v4(ip::v4_mapped, address.to_v6());
  ifaddrs* list = nullptr;
  if (::getifaddrs(&list) != 0) return false;
  bool own = false;
  for (const ifaddrs* at = list; at != nullptr && !own; at = at->ifa_next) {
    if (at->ifa_addr == nullptr) continue;
    if (at->ifa_addr->sa_family == AF_INET && wanted.is_v4()) {
      const auto* in = reinterpret_cast<const sockaddr_in*>(at->ifa_addr);
      own = wanted.to_v4().to_uint() == ntohl(in->sin_addr.s_addr);
    } else if (at->ifa_addr->sa_family == AF_INET6 && wanted.is_v6()) {
      const auto* in6 = reinterpret_cast<const sockaddr_in6*>(at->ifa_addr);
      ip::address_v6::bytes_type bytes;
      std::memcpy(bytes.data(), in6->sin6_addr.s6_addr, bytes.size());
      own = wanted.to_v6().to_bytes() == bytes;
    }
  }
  ::freeifaddrs(list);
  return own;
}

std::optional<std::string> refusePrivateAddress(const boost::asio::ip::address& address) {
  // The fact only: the caller says which setting allows it, so the reason is given once.
  if (isPrivateOrLoopback(address)) return address.to_string() + " is a loopback or private address";
  if (isOwnAddress(address)) return address.to_string() + " is an address of this machine";
  return std::nullopt;
}

} // namespace toold::core
