#pragma once

#include "agentsession/agentsession.h"

#include <QObject>
#include <QProcessEnvironment>

#include <functional>
#include <optional>

namespace Ui {

class KeyStore;
struct KeyResult;

/// Turns what the user chose (a model selection, or the offline demo) into the ModelChoice a
/// session calls: the provider's key comes from the KeyStore (asynchronously: the keyring may
/// ask to be unlocked), else from the provider's environment variable; without either the
/// choice carries the problem, which every task then says. UI thread; never blocks.
class ModelResolver final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ModelResolver)
public:
    /// \a keys must outlive the resolver.
    ModelResolver(KeyStore *keys, QProcessEnvironment environment, QObject *parent = nullptr);
    ~ModelResolver() override;

    /// Calls \a done with the choice for \a selection (nullopt: the demo) from the event loop;
    /// never when \a context is destroyed first.
    void resolve(const std::optional<ModelSelection> &selection,
                 QObject *context,
                 std::function<void(const ModelChoice &)> done);

    /// What a session uses while the key of \a selection is read: requests wait for it.
    static ModelChoice pending(const ModelSelection &selection);
    /// The offline demo, labelled as scripted.
    static ModelChoice demo();

private:
    ModelChoice withKey(const ModelSelection &selection, const KeyResult &stored) const;

    KeyStore *m_keys;
    QProcessEnvironment m_environment;
};

} // namespace Ui
