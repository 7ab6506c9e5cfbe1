#pragma once

#include "usagesummary.h"

#include <QLabel>

namespace Ui {

/// The status bar's usage: "Context 12% · 15.2k tokens · $0.04" ("Context 15.2k" when the
/// model's window is unknown), with the breakdown in the tool tip. Empty (and hidden) until
/// the conversation holds or used anything. A click asks for the context view. UI thread.
class UsageLabel final : public QLabel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UsageLabel)
public:
    explicit UsageLabel(QWidget *parent = nullptr);
    ~UsageLabel() override;

    /// \a tokensOnly: the offline demo, whose window and price mean nothing.
    void setUsage(const UsageSummary &usage, bool tokensOnly);

    /// 950 -> "950", 15'234 -> "15.2k", 1'250'000 -> "1.25M", in \a locale's digits.
    static QString compactNumber(qint64 value, const QLocale &locale);
    /// US dollars: "$0.04", "<$0.01", "$12.30".
    static QString dollars(double cost, const QLocale &locale);

signals:
    /// Clicked: the user wants to see what fills the context window.
    void contextViewRequested();

protected:
    void mouseReleaseEvent(QMouseEvent *event) override;

private:
    QString toolTipFor(const UsageSummary &usage, bool tokensOnly) const;
};

} // namespace Ui
