#pragma once

class MainWindow;
