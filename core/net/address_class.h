// Which addresses are the machine itself or its private network. A tool that fetches URLs for a
// model refuses these by default: the check runs on the address a name resolved to, since a public
// name can point anywhere (DNS rebinding).
#pragma once
#include <boost/asio/ip/address.hpp>

#include <optional>
#include <string>

namespace toold::core {

/// Loopback, unspecified, RFC 1918 and carrier-grade NAT (100.64/10), link-local, multicast,
/// IPv6 unique-local and site-local, and IPv4-mapped or -compatible forms of any of them.
bool isPrivateOrLoopback(const boost::asio::ip::address& address);

/// A refusal sentence for `address` when it is private or loopback, nothing otherwise; shaped for
/// HttpOptions::refuse_address.
std::optional<std::string> refusePrivateAddress(const boost::asio::ip::address& address);

} // namespace toold::core
