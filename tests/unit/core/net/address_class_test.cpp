#include "core/net/address_class.h"

#include <catch2/catch.hpp>

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
