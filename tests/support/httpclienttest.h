#pragma once

#include "httptestserver.h"
#include "streameventlog.h"

#include <ai/aborttoken.h>
#include <ai/providerconfig.h>
#include <ai/types.h>

#include <QByteArray>
#include <QJsonObject>
#include <QMetaType>
#include <QString>

Q_DECLARE_METATYPE(TestSupport::ScriptedResponse)
Q_DECLARE_METATYPE(TestSupport::ScriptedResponse::Ending)
Q_DECLARE_METATYPE(TestSupport::ScriptedResponse::Framing)

/// What the HttpModelClient tests share: a config pointing at the test server, the request
/// they send, and ways to cut a recorded stream short. Pure functions unless said otherwise.
namespace TestSupport {

/// The API key every config of httpClientConfig() carries; it must never show in messages.
extern const QString HttpClientApiKey;

/// An Anthropic 529 "Overloaded" error body.
extern const QByteArray OverloadedBody;

/// A config for \a fixtureProvider ("anthropic", "openai-chat", "openai-responses") talking
/// to \a server: 10 s idle timeout, 10 ms retry base delay, HttpClientApiKey.
AgentCore::ProviderConfig httpClientConfig(const QString &fixtureProvider,
                                           const HttpTestServer &server);

/// The request path the client must ask for with \a fixtureProvider's API.
QByteArray httpClientExpectedPath(const QString &fixtureProvider);

/// A system prompt and one user message "Hello".
AgentCore::Context httpClientHelloContext();

/// The text blocks of a fixture's expected message joined, as Message::text() joins them.
QString expectedFixtureText(const QJsonObject &expected);

/// The first half of \a stream (cut at an event boundary, in a few pieces), then \a ending.
ScriptedResponse firstHalfThen(const QByteArray &stream, ScriptedResponse::Ending ending);

/// readFixtureStream() for Latin-1 literals.
QByteArray fixture(const char *provider, const char *name);

/// complete() of httpClientHelloContext() on the calling thread, whose event loop serves the
/// server meanwhile; the events go to \a log.
AgentCore::Message completeWith(const AgentCore::ProviderConfig &config,
                                StreamEventLog &log,
                                const AgentCore::AbortToken &token = {});

/// Empty when \a message assembles to the fixture's expected result, else the first difference.
QString fixtureDifference(const AgentCore::Message &message,
                          const QString &provider,
                          const QString &name);

} // namespace TestSupport
