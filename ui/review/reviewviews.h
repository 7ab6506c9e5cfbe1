#pragma once

#include <permissions/permissionrequest.h>

#include <functional>

QT_BEGIN_NAMESPACE
class QWidget;
QT_END_NAMESPACE

namespace Ui {

class ReviewAnswerBar;

/// What a review view reports when the user answered it. \a rejectedHunks: Edit/Write only.
using ReviewAnswered = std::function<void(quint64 requestId,
                                          const AgentCore::PermissionAnswer &answer,
                                          const QList<int> &rejectedHunks)>;

/// The one place that decides how a request is reviewed, for every list of reviews (a
/// session's ReviewQueue, the window's approvals inbox): Edit and Write get a DiffReviewView
/// (per hunk), what a command wrote a ShellWritesReviewView, Bash a BashReviewView, anything
/// else the tool, its target and why, with a ReviewAnswerBar. The view's accessible name says
/// what it reviews. \a onAnswered is called with what the user chose (never by itself).
QWidget *createReviewView(const AgentCore::PermissionRequest &request,
                          QWidget *parent,
                          const ReviewAnswered &onAnswered);

/// The answer row of a view made by createReviewView (its keys, its buttons).
ReviewAnswerBar *reviewAnswerBar(const QWidget *view);

} // namespace Ui
