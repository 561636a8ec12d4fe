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

/// Whether `address` (or the IPv4 address an IPv4-mapped one stands for) is one of this machine's
/// own interface addresses, public ones included: a service listening on 0.0.0.0 answers there
/// as it does on loopback. Asked of the kernel on every call (interfaces come and go).
bool isOwnAddress(const boost::asio::ip::address& address);

/// A refusal sentence for `address` when it is private, loopback or one of this machine's own,
/// nothing otherwise; shaped for HttpOptions::refuse_address.
std::optional<std::string> refusePrivateAddress(const boost::asio::ip::address& address);

} // namespace toold::core
