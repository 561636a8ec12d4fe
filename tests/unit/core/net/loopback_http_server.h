// A scripted HTTP server on 127.0.0.1 for the client's tests: it accepts connections one at a
// time on its own thread, reads one request, and answers with whatever the test's handler writes
// (raw bytes, in pieces, slowly, or not at all). Optionally speaks TLS with a self-signed
// certificate made at start, so the client's verification can be tried against a real handshake.
#pragma once
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/asio/write.hpp>

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace toold::testing {

class LoopbackHttpServer {
public:
  // What the handler gets: the raw request (head and body) and a way to write to the client.
  struct Connection {
    std::string request;
    std::function<void(std::string_view)> write;
    std::function<void()> waitForClose; // reads until the client hangs up
  };
  using Handler = std::function<void(Connection&)>;

  explicit LoopbackHttpServer(Handler handler, bool tls = false)
      : handler_(std::move(handler)), acceptor_(ioc_, {boost::asio::ip::make_address("127.0.0.1"), 0}) {
    if (tls) makeTlsContext();
    thread_ = std::thread([this] { serve(); });
  }
  ~LoopbackHttpServer() {
    stopping_ = true;
    // A blocking accept() does not wake when its socket is closed from another thread: connect.
    boost::system::error_code ignored;
    boost::asio::io_context ioc;
    boost::asio::ip::tcp::socket wake(ioc);
    wake.connect(acceptor_.local_endpoint(), ignored);
    thread_.join();
  }

  unsigned short port() const { return acceptor_.local_endpoint().port(); }
  std::string url(const std::string& path = "/") const {
    return std::string(tls_ ? "https" : "http") + "://127.0.0.1:" + std::to_string(port()) + path;
  }
  int connections() const { return connections_; }
  std::vector<std::string> requests() {
    std::lock_guard lock(mutex_);
    return requests_;
  }

private:
  void serve() {
    while (!stopping_) {
      boost::asio::ip::tcp::socket socket(ioc_);
      boost::system::error_code ec;
      acceptor_.accept(socket, ec);
      if (ec || stopping_) return;
      ++connections_;
      try {
        if (tls_) {
          boost::asio::ssl::stream<boost::asio::ip::tcp::socket&> stream(socket, *tls_);
          stream.handshake(boost::asio::ssl::stream_base::server, ec);
          if (ec) continue; // the client refused our certificate: nothing to answer
          converse(stream);
        } else {
          converse(socket);
        }
      } catch (const std::exception&) {
        // The client went away mid-answer, which several tests do on purpose.
      }
    }
  }

  template <class Stream> void converse(Stream& stream) {
    Connection connection;
    char buffer[4096];
    std::size_t wanted = std::string::npos;
    while (wanted == std::string::npos || connection.request.size() < wanted) {
      boost::system::error_code ec;
      const std::size_t got = stream.read_some(boost::asio::buffer(buffer), ec);
      if (ec) break;
      connection.request.append(buffer, got);
      const auto end = connection.request.find("\r\n\r\n");
      if (wanted == std::string::npos && end != std::string::npos) {
        std::size_t length = 0;
        const auto at = connection.request.find("Content-Length: ");
        if (at != std::string::npos && at < end) length = std::stoul(connection.request.substr(at + 16));
        wanted = end + 4 + length;
      }
    }
    {
      std::lock_guard lock(mutex_);
      requests_.push_back(connection.request);
    }
    connection.write = [&stream](std::string_view bytes) { boost::asio::write(stream, boost::asio::buffer(bytes)); };
    connection.waitForClose = [&stream, &buffer] {
      boost::system::error_code ec;
      while (!ec) stream.read_some(boost::asio::buffer(buffer), ec);
    };
    handler_(connection);
  }

  void makeTlsContext() {
    tls_ = std::make_unique<boost::asio::ssl::context>(boost::asio::ssl::context::tls_server);
    EVP_PKEY* key = EVP_RSA_gen(2048);
    X509* certificate = X509_new();
    ASN1_INTEGER_set(X509_get_serialNumber(certificate), 1);
    X509_gmtime_adj(X509_getm_notBefore(certificate), 0);
    X509_gmtime_adj(X509_getm_notAfter(certificate), 3600);
    X509_set_pubkey(certificate, key);
    X509_NAME* name = X509_get_subject_name(certificate);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("127.0.0.1"), -1, -1, 0);
    X509_set_issuer_name(certificate, name);
    X509_sign(certificate, key, EVP_sha256());
    SSL_CTX_use_certificate(tls_->native_handle(), certificate);
    SSL_CTX_use_PrivateKey(tls_->native_handle(), key);
    X509_free(certificate);
    EVP_PKEY_free(key);
  }

  Handler handler_;
  boost::asio::io_context ioc_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::unique_ptr<boost::asio::ssl::context> tls_;
  std::thread thread_;
  std::atomic<bool> stopping_{false};
  std::atomic<int> connections_{0};
  std::mutex mutex_;
  std::vector<std::string> requests_;
};

} // namespace toold::testing
