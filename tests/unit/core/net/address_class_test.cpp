#include "core/net/address_class.h"

#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <netinet/in.h>

using boost::asio::ip::make_address;
using toold::core::isPrivateOrLoopback;

TEST_CASE("isPrivateOrLoopback knows the machine and its private networks", "[net]") {
  for (const char* text : {"127.0.0.1", "127.255.0.9", "0.0.0.0", "10.1.2.3", "172.16.0.1", "172.31.255.255",
                           "192.168.1.1", "169.254.169.254", "100.64.0.1", "100.127.255.255", "224.0.0.1",
                           "255.255.255.255", "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1",
                           "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::127.0.0.1"}) {
    INFO(text);
    CHECK(isPrivateOrLoopback(make_address(text)));
  }
}

TEST_CASE("isPrivateOrLoopback lets public addresses through", "[net]") {
  for (const char* text : {"8.8.8.8", "1.1.1.1", "172.32.0.1", "172.15.255.255", "100.128.0.1", "100.63.255.255",
                           "192.169.0.1", "169.253.0.1", "2606:4700::1111", "::ffff:8.8.8.8"}) {
    INFO(text);
    CHECK_FALSE(isPrivateOrLoopback(make_address(text)));
  }
  CHECK(toold::core::refusePrivateAddress(make_address("10.0.0.1"))->find("10.0.0.1") == 0);
  CHECK_FALSE(toold::core::refusePrivateAddress(make_address("8.8.8.8")));
}

TEST_CASE("the machine's own interface addresses are refused, public ones included", "[net]") {
  // Every address an interface has, whatever its range (a test network or public address on eth0
  // reaches a service bound to 0.0.0.0 as loopback does).
  ifaddrs* list = nullptr;
  REQUIRE(::getifaddrs(&list) == 0);
  int seen = 0;
  for (const ifaddrs* at = list; at != nullptr; at = at->ifa_next) {
    if (at->ifa_addr == nullptr || (at->ifa_addr->sa_family != AF_INET && at->ifa_addr->sa_family != AF_INET6)) continue;
    char text[INET6_ADDRSTRLEN] = {};
    const void* raw = at->ifa_addr->sa_family == AF_INET
                          ? static_cast<const void*>(&reinterpret_cast<const sockaddr_in*>(at->ifa_addr)->sin_addr)
                          : static_cast<const void*>(&reinterpret_cast<const sockaddr_in6*>(at->ifa_addr)->sin6_addr);
    REQUIRE(::inet_ntop(at->ifa_addr->sa_family, raw, text, sizeof text) != nullptr);
    INFO(text);
    const auto address = make_address(text);
    CHECK(toold::core::isOwnAddress(address));
    CHECK(toold::core::refusePrivateAddress(address));
    if (address.is_v4()) CHECK(toold::core::isOwnAddress(make_address(std::string("::ffff:") + text)));
    ++seen;
  }
  ::freeifaddrs(list);
  CHECK(seen > 0);
  CHECK_FALSE(toold::core::isOwnAddress(make_address("8.8.8.8")));
  CHECK_FALSE(toold::core::isOwnAddress(make_address("2606:4700::1111")));
}
